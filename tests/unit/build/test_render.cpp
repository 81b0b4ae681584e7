#include "../testutil.hpp"
#include "build/render.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace envlock;

namespace {

std::string rendered(const build::RenderRequest& request) {
  auto out = build::render_file(request);
  REQUIRE_MESSAGE(out.has_value(), (out ? "" : out.error().message));
  return *out;
}

build::RenderRequest good_request(build::Verifier verifier = build::Verifier::omit) {
  build::RenderRequest request;
  request.lock_path = test::data_path("render/good_lock.json");
  request.verifier = verifier;
  return request;
}

std::string error_of(const build::RenderRequest& request, ExitCode code = ExitCode::usage) {
  auto out = build::render_file(request);
  REQUIRE(!out.has_value());
  CHECK(out.error().code == code);
  return out.error().message;
}

std::string data_text(const std::string& name) {
  auto text = util::read_file(test::data_path(name));
  REQUIRE(text.has_value());
  return *text;
}

} // namespace

TEST_SUITE_BEGIN("render");

TEST_CASE("render: the default template gives the golden Dockerfile, byte for byte") {
  CHECK(rendered(good_request()) == data_text("render/golden.Dockerfile"));
}

TEST_CASE("render: --with-verifier gives the golden verifier Dockerfile") {
  CHECK(rendered(good_request(build::Verifier::include)) ==
        data_text("render/golden_verifier.Dockerfile"));
}

TEST_CASE("render: rendering twice gives identical bytes") {
  CHECK(rendered(good_request()) == rendered(good_request()));
}

TEST_CASE("render: the default template is templates/Dockerfile.mustache of the source tree") {
  auto tmpl = build::default_template();
  REQUIRE(tmpl.has_value());
  CHECK(tmpl->origin.ends_with("templates/Dockerfile.mustache"));
  CHECK(tmpl->text == *util::read_file(std::filesystem::path(ENVLOCK_SOURCE_DIR) / "templates" /
                                       "Dockerfile.mustache"));
}

TEST_CASE("render: a custom template sees lock fields and derived values") {
  auto request = good_request();
  request.template_path = test::data_path("render/custom.mustache");
  CHECK(rendered(request) == data_text("render/custom.expected"));
}

TEST_CASE("render: a name the context lacks is an error, with a suggestion") {
  util::TempDir dir = test::temp_dir();
  auto request = good_request();
  request.template_path = dir.path() / "t.mustache";
  test::write_text(*request.template_path, "FROM {{base_image.digst}}\n");
  CHECK(error_of(request) == request.template_path->string() +
                                 ": unknown name 'base_image.digst'; did you mean "
                                 "'base_image.digest'?");
  test::write_text(*request.template_path, "{{#labels}}{{kye}}{{/labels}}\n");
  CHECK(error_of(request) ==
        request.template_path->string() + ": unknown name 'kye'; did you mean 'key'?");
  test::write_text(*request.template_path,
                   "{{^nothing_like_this_at_all}}x{{/nothing_like_this_at_all}}\n");
  CHECK(error_of(request) ==
        request.template_path->string() + ": unknown name 'nothing_like_this_at_all'");
}

TEST_CASE("render: a template that does not parse") {
  util::TempDir dir = test::temp_dir();
  auto request = good_request();
  request.template_path = dir.path() / "t.mustache";
  test::write_text(*request.template_path, "{{#labels}}\n");
  CHECK(error_of(request) ==
        request.template_path->string() + ": Unclosed section \"labels\" at 0");
}

TEST_CASE("render: a missing template file") {
  auto request = good_request();
  request.template_path = "/nonexistent/envlock/t.mustache";
  CHECK(error_of(request) == "/nonexistent/envlock/t.mustache: No such file or directory");
}

TEST_CASE("render: lock errors") {
  build::RenderRequest request;
  request.lock_path = "/nonexistent/envlock.lock.json";
  CHECK(error_of(request) ==
        "/nonexistent/envlock.lock.json: no such file; run 'envlock lock' to create it");

  request.lock_path = test::data_path("render/bad_json_lock.json");
  CHECK(error_of(request) == request.lock_path.string() + ":4:25: invalid JSON: expected ':'");

  request.lock_path = test::data_path("render/bad_digest_lock.json");
  CHECK(error_of(request) ==
        request.lock_path.string() +
            ": base_image.digest: 'sha256:latest' is not a sha256 digest (sha256: and 64 hex "
            "digits)");
}

TEST_SUITE_END();
