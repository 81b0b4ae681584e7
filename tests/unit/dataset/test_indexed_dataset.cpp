// The Megatron indexed dataset writer and reader: byte layout, round trip, the sample generator's
// determinism, and errors on damaged files word for word.
#include "../testutil.hpp"
#include "dataset/indexed_dataset.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::dataset;

TEST_SUITE_BEGIN("dataset");

TEST_CASE("the index has Megatron's byte layout") {
  const auto dataset = make_dataset({{1, 2, 3}, {4, 5}}, TokenType::uint16);
  REQUIRE(dataset);
  const std::string idx = encode_index(*dataset);
  // magic 9 + version 8 + type 1 + counts 16 + 2 lengths x4 + 2 pointers x8 + 3 doc indices x8
  REQUIRE(idx.size() == 9 + 8 + 1 + 16 + 8 + 16 + 24);
  CHECK(idx.substr(0, 9) == std::string("MMIDIDX\0\0", 9));
  CHECK(idx.substr(9, 8) == std::string("\x01\0\0\0\0\0\0\0", 8));
  CHECK(idx[17] == 8);                                              // uint16
  CHECK(idx.substr(18, 8) == std::string("\x02\0\0\0\0\0\0\0", 8)); // sequences
  CHECK(idx.substr(26, 8) == std::string("\x03\0\0\0\0\0\0\0", 8)); // document indices
  CHECK(idx.substr(34, 8) == std::string("\x03\0\0\0\x02\0\0\0", 8));
  CHECK(idx.substr(42, 16) == std::string("\0\0\0\0\0\0\0\0\x06\0\0\0\0\0\0\0", 16));
  CHECK(idx.substr(58) == std::string("\0\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0", 24));
  CHECK(encode_tokens(*dataset) == std::string("\x01\0\x02\0\x03\0\x04\0\x05\0", 10));
}

TEST_CASE("a written dataset reads back the same, for every integer type") {
  const util::TempDir dir = test::temp_dir();
  for (const TokenType type : {TokenType::uint8, TokenType::int8, TokenType::int16,
                               TokenType::uint16, TokenType::int32, TokenType::int64}) {
    CAPTURE(to_string(type));
    const std::vector<std::vector<std::int64_t>> documents = {{0, 1, 100}, {}, {7}, {127, 3}};
    const auto dataset = make_dataset(documents, type);
    REQUIRE(dataset);
    const auto prefix = dir.path() / to_string(type);
    REQUIRE(write_dataset(prefix, *dataset));
    const auto read = read_dataset(prefix);
    REQUIRE_MESSAGE(read, read.error().message);
    CHECK(read->type == type);
    CHECK(read->tokens == dataset->tokens);
    CHECK(read->sequence_lengths == std::vector<std::int32_t>{3, 0, 1, 2});
    CHECK(read->sequence_pointers == dataset->sequence_pointers);
    CHECK(read->document_indices == std::vector<std::int64_t>{0, 1, 2, 3, 4});
  }
  const auto negative = make_dataset({{-5, 5}}, TokenType::int16);
  REQUIRE(negative);
  REQUIRE(write_dataset(dir.path() / "negative", *negative));
  CHECK(read_dataset(dir.path() / "negative")->tokens == std::vector<std::int64_t>{-5, 5});
}

TEST_CASE("tokens that do not fit the type are input errors") {
  CHECK(make_dataset({{70000}}, TokenType::uint16).error().message ==
        "token 70000 does not fit uint16");
  CHECK(make_dataset({{1}}, TokenType::float32).error().message ==
        "token type float32 is not an integer type");
}

TEST_CASE("damaged files are input errors naming the file") {
  const util::TempDir dir = test::temp_dir();
  const auto prefix = dir.path() / "data";
  const auto dataset = make_dataset({{1, 2, 3}}, TokenType::uint16);
  REQUIRE(write_dataset(prefix, *dataset));
  const std::string idx = encode_index(*dataset);
  const std::string where = idx_path(prefix).string() + ": ";

  REQUIRE(util::write_file_atomic(idx_path(prefix), "NOTANIDX" + idx.substr(8)));
  CHECK(read_dataset(prefix).error().message ==
        where + "not a Megatron indexed dataset index (bad magic)");
  std::string bad = idx;
  bad[9] = 2;
  REQUIRE(util::write_file_atomic(idx_path(prefix), bad));
  CHECK(read_dataset(prefix).error().message == where + "unsupported version 2 (expected 1)");
  bad = idx;
  bad[17] = 9;
  REQUIRE(util::write_file_atomic(idx_path(prefix), bad));
  CHECK(read_dataset(prefix).error().message == where + "unknown token type code 9");
  REQUIRE(util::write_file_atomic(idx_path(prefix), idx.substr(0, idx.size() - 1)));
  CHECK(read_dataset(prefix).error().message ==
        where + "truncated: 1 sequences and 2 document entries do not fit");
  REQUIRE(util::write_file_atomic(idx_path(prefix), idx));
  REQUIRE(util::write_file_atomic(bin_path(prefix), std::string(4, '\0')));
  CHECK(read_dataset(prefix).error().message == where + "sequence 0 lies outside data.bin");
}

TEST_CASE("the sample dataset is deterministic and in range") {
  const auto a = sample_dataset({10000, 512, 7});
  const auto b = sample_dataset({10000, 512, 7});
  const auto c = sample_dataset({10000, 512, 8});
  REQUIRE(a);
  REQUIRE(c);
  CHECK(encode_tokens(*a) == encode_tokens(*b));
  CHECK(encode_index(*a) == encode_index(*b));
  CHECK(encode_tokens(*a) != encode_tokens(*c));
  CHECK(a->tokens.size() == 10000);
  CHECK(a->type == TokenType::uint16);
  for (const auto token : a->tokens) {
    REQUIRE(token >= 0);
    REQUIRE(token < 512);
  }
  CHECK(sample_dataset({10, 70000, 1})->type == TokenType::int32);
  CHECK(sample_dataset({0, 512, 1}).error().message == "--tokens must be at least 1");
  CHECK(sample_dataset({10, 1, 1}).error().message == "--vocab must be at least 2");
}

TEST_SUITE_END();
