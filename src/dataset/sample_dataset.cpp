// The deterministic sample token file of `envlock sample-data` and the resume check.
#include "dataset/indexed_dataset.hpp"

namespace envlock::dataset {

namespace {

// splitmix64: a tiny generator whose output is the same on every platform.
class SplitMix {
public:
  explicit SplitMix(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }
  // Uniform in [0, bound).
  std::int64_t below(std::int64_t bound) {
    return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(bound));
  }

private:
  std::uint64_t m_state;
};

constexpr int k_successors = 4; // each token is followed by one of 4 fixed tokens

} // namespace

Result<IndexedDataset> sample_dataset(const SampleSpec& spec) {
  if (spec.tokens < 1) {
    return input_error("--tokens must be at least 1");
  }
  if (spec.vocab < 2) {
    return input_error("--vocab must be at least 2");
  }
  SplitMix random(spec.seed);
  std::vector<std::int64_t> successors(static_cast<std::size_t>(spec.vocab * k_successors));
  for (auto& successor : successors) {
    successor = random.below(spec.vocab);
  }
  std::vector<std::vector<std::int64_t>> documents;
  std::int64_t left = spec.tokens;
  while (left > 0) {
    const std::int64_t length = std::min<std::int64_t>(left, 64 + random.below(961));
    std::vector<std::int64_t> document;
    document.reserve(static_cast<std::size_t>(length));
    std::int64_t token = random.below(spec.vocab);
    for (std::int64_t i = 0; i < length; ++i) {
      document.push_back(token);
      token =
          successors[static_cast<std::size_t>(token * k_successors + random.below(k_successors))];
    }
    documents.push_back(std::move(document));
    left -= length;
  }
  const TokenType type = spec.vocab <= 65536 ? TokenType::uint16 : TokenType::int32;
  return make_dataset(documents, type);
}

} // namespace envlock::dataset
