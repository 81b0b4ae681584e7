#include "uv/lock_expect.hpp"

#include <doctest/doctest.h>

namespace {

envlock::lock::UvLockPin expect_pin(const std::vector<envlock::lock::UvPackage>& packages) {
  envlock::lock::UvLockPin pin;
  pin.path = "uv.lock";
  pin.requires_python = ">=3.12.4,<3.14";
  pin.packages = packages;
  return pin;
}

} // namespace

TEST_SUITE("uv.lock_expect") {

  TEST_CASE("a version agrees when equal by PEP 440, a local label only when both have one") {
    CHECK(envlock::uv::version_agrees("2.8.0+cu128", "2.8.0+cu128"));
    CHECK(envlock::uv::version_agrees("2.8.0", "2.8.0+cu128"));
    CHECK(envlock::uv::version_agrees("2.8.0+cu128", "2.8"));
    CHECK_FALSE(envlock::uv::version_agrees("2.8.0+cu128", "2.8.0+cu126"));
    CHECK_FALSE(envlock::uv::version_agrees("2.8.0+cu128", "2.7.1+cu128"));
    CHECK_FALSE(envlock::uv::version_agrees("2.8.0a0", "2.8.0"));
    CHECK(envlock::uv::version_agrees("not a version", "not a version"));
  }

  TEST_CASE("expect against the packages uv.lock locks") {
    envlock::lock::Expect expect;
    expect.pytorch = "2.7.1+cu128";
    expect.nccl = "2.27.3";
    expect.python = "3.12";
    // Nothing locked that expect names: nothing to contradict, 3.12.4 satisfies requires-python.
    CHECK(envlock::uv::expect_contradictions(expect, expect_pin({})).empty());
    const auto pin = expect_pin({{"nvidia-nccl-cu13", "2.28.9", "registry", "x"},
                                 {"torch", "2.7.1", "registry", "x"},
                                 {"torch", "2.8.0", "registry", "y"}});
    // One torch of two agrees; the NCCL does not.
    CHECK(
        envlock::uv::expect_contradictions(expect, pin) ==
        std::vector<std::string>{"expect.nccl is '2.27.3'; uv.lock locks nvidia-nccl-cu13 2.28.9"});
    expect.python = "3.11";
    expect.nccl.clear();
    expect.pytorch = "2.9.0";
    CHECK(envlock::uv::expect_contradictions(expect, pin) ==
          std::vector<std::string>{
              "expect.pytorch is '2.9.0'; uv.lock locks torch 2.7.1, torch 2.8.0",
              "expect.python is '3.11'; uv.lock has requires-python '>=3.12.4,<3.14', which no "
              "Python 3.11 satisfies"});
  }
}
