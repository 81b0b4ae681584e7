// The GPU checks' arithmetic, tested without a GPU: bandwidth and bus bandwidth as nccl-tests
// defines them, the known-answer comparison, the GEMM tolerance, version and UUID formatting.
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/figures.hpp"
#include "verify/gpu/known_answer.hpp"
#include "verify/gpu/nccl_api.hpp"

#include <doctest/doctest.h>

namespace envlock::verify {

TEST_SUITE("verify_gpu") {

  TEST_CASE("bandwidth figures follow nccl-tests") {
    CHECK(gbps(2e9, 0.5) == doctest::Approx(4.0));
    CHECK(gbps(1e9, 0) == 0.0);
    // 1 GiB in 3.2 ms on 2 GPUs: algbw 335.5 GB/s, busbw = algbw * 2 (n - 1) / n.
    const double algbw = gbps(1073741824.0, 0.0032);
    CHECK(algbw == doctest::Approx(335.54).epsilon(1e-3));
    CHECK(allreduce_busbw(algbw, 2) == doctest::Approx(algbw));
    CHECK(allreduce_busbw(100.0, 8) == doctest::Approx(175.0));
    CHECK(allreduce_busbw(100.0, 1) == 0.0);
    CHECK(gemm_tflops(8192, 8192, 8192, 0.001) == doctest::Approx(1099.51).epsilon(1e-4));
  }

  TEST_CASE("known answers are checked exactly") {
    std::vector<std::uint32_t> answers(4096);
    for (std::uint32_t i = 0; i < answers.size(); ++i) {
      answers[i] = known::known_answer(i);
    }
    CHECK(known_answer_mismatches(answers).count == 0);
    answers[1234] ^= 1U; // one flipped bit
    answers[4000] = 0;
    const Mismatches wrong = known_answer_mismatches(answers);
    CHECK(wrong.count == 2);
    CHECK(wrong.first == 1234);
    CHECK(wrong.first_expected == known::known_answer(1234));
    CHECK(wrong.first_found == (known::known_answer(1234) ^ 1U));
  }

  TEST_CASE("the known answer is a fixed function of the index") {
    // Pinned values: a change to the FMA chain or the hash must be deliberate (the kernels share
    // it). The H200 runs (bench/results/h200x2-pass.json) agreed with these on 2^20 elements.
    CHECK(known::hash32(0) == 0U);
    CHECK(known::hash32(1) == 0x0AB656ACU);
    CHECK(known::known_answer(0) == 0x42F6CB19U);
    CHECK(known::known_answer(12345) == 0xE4D2C4FFU);
  }

  TEST_CASE("all-reduce outputs must equal N(N+1)/2 everywhere") {
    std::vector<float> found(1000, 36.0F);
    CHECK(allreduce_mismatches(found, 36.0F).count == 0);
    found[999] = 35.0F;
    const Mismatches wrong = allreduce_mismatches(found, 36.0F);
    CHECK(wrong.count == 1);
    CHECK(wrong.first == 999);
  }

  TEST_CASE("GEMM inputs are exact BF16 values k/128") {
    for (std::uint32_t i = 0; i < 1000; ++i) {
      const float value = known::bf16_to_float(known::gemm_input_bits(1, i));
      CHECK(value >= -1.0F);
      CHECK(value < 1.0F);
      CHECK(value * 128.0F == static_cast<float>(static_cast<int>(value * 128.0F)));
    }
    CHECK(known::gemm_input_bits(1, 7) != known::gemm_input_bits(2, 7));
  }

  TEST_CASE("the GEMM tolerance accepts rounding and rejects wrong entries") {
    // 30.0 rounded to BF16 neighbours: within 2^-8 relative.
    CHECK(gemm_entry_within_tolerance(30.0, 30.05, 2000.0));
    CHECK(gemm_entry_within_tolerance(30.0 + 0.1, 30.0, 2000.0)); // 0.1 < 0.117 + 0.122
    CHECK_FALSE(gemm_entry_within_tolerance(31.0, 30.0, 2000.0));
    CHECK_FALSE(gemm_entry_within_tolerance(0.0, 30.0, 2000.0));
    CHECK_FALSE(gemm_entry_within_tolerance(-30.0, 30.0, 2000.0));
  }

  TEST_CASE("NCCL version codes decode both encodings") {
    CHECK(nccl::version_string(2708) == "2.7.8");
    CHECK(nccl::version_string(22809) == "2.28.9");
    CHECK(nccl::version_string(23007) == "2.30.7");
  }

  TEST_CASE("CUDA driver versions and UUIDs print as the tools print them") {
    CHECK(cuda::version_string(13000) == "13.0");
    CHECK(cuda::version_string(12080) == "12.8");
    cuda::CuUuid uuid{};
    for (int i = 0; i < 16; ++i) {
      uuid.bytes[i] = static_cast<unsigned char>(0xA0 + i); // NOLINT: ABI array
    }
    CHECK(cuda::uuid_string(uuid) == "GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
  }

} // TEST_SUITE

} // namespace envlock::verify
