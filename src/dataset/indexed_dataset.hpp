// Megatron-LM's indexed dataset (docs/formats/indexed-dataset.md): PREFIX.bin holds the tokens of
// every sequence back to back; PREFIX.idx holds a header ("MMIDIDX\0\0", version 1, the token
// type's code, the sequence and document counts), then the sequence lengths (int32), the byte
// offset of each sequence in .bin (int64) and the document boundaries (int64, starting at 0).
// Little-endian throughout. This is the token format the resume check trains on.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace envlock::dataset {

// The token types of the format, by their code in the index.
enum class TokenType : std::uint8_t {
  uint8 = 1,
  int8 = 2,
  int16 = 3,
  int32 = 4,
  int64 = 5,
  float64 = 6,
  float32 = 7,
  uint16 = 8,
};

// Bytes per token of `type`.
std::size_t token_size(TokenType type);

// "uint16", "int32", ...
const char* to_string(TokenType type);

// One indexed dataset held in memory: documents of sequences of token ids.
struct IndexedDataset {
  TokenType type = TokenType::uint16;
  std::vector<std::int32_t> sequence_lengths;  // tokens per sequence
  std::vector<std::int64_t> sequence_pointers; // byte offset of each sequence in .bin
  std::vector<std::int64_t> document_indices;  // [0, end of doc 1, ...], sequence indices
  std::vector<std::int64_t> tokens;            // every token, in .bin order
};

// PREFIX.bin and PREFIX.idx.
std::filesystem::path bin_path(const std::filesystem::path& prefix);
std::filesystem::path idx_path(const std::filesystem::path& prefix);

// Builds a dataset of one sequence per document, with the pointers filled in. Fails (input error)
// when a token does not fit `type` (only the integer types are accepted).
Result<IndexedDataset> make_dataset(const std::vector<std::vector<std::int64_t>>& documents,
                                    TokenType type);

// The bytes of the .idx and .bin files.
std::string encode_index(const IndexedDataset& dataset);
std::string encode_tokens(const IndexedDataset& dataset);

// Writes PREFIX.bin and PREFIX.idx atomically; an environment error names the file.
Status write_dataset(const std::filesystem::path& prefix, const IndexedDataset& dataset);

// Reads and validates PREFIX.idx and PREFIX.bin. Input errors name the file and what is wrong:
// "PREFIX.idx: not a Megatron indexed dataset index (bad magic)", an unsupported version or type
// code, counts that do not match the file size, pointers outside PREFIX.bin.
Result<IndexedDataset> read_dataset(const std::filesystem::path& prefix);

struct SampleSpec {
  std::int64_t tokens = 262144; // about this many tokens in all
  std::int64_t vocab = 4096;    // token ids are below this
  std::uint64_t seed = 1234;
};

// A small deterministic dataset with learnable structure: documents of 64-1024 tokens drawn from
// a fixed random bigram chain (splitmix64, so every platform writes the same bytes). uint16 when
// vocab <= 65536, else int32. Fails (input error) on tokens < 1 or vocab < 2.
Result<IndexedDataset> sample_dataset(const SampleSpec& spec);

} // namespace envlock::dataset
