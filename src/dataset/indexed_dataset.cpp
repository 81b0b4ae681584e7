#include "dataset/indexed_dataset.hpp"

#include "util/fs.hpp"

#include <cstring>
#include <limits>

namespace envlock::dataset {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_magic{"MMIDIDX\0\0", 9};
constexpr std::uint64_t k_version = 1;
constexpr std::size_t k_header_size = 9 + 8 + 1 + 8 + 8;

void put_le(std::string& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xffU));
  }
}

std::uint64_t get_le(std::string_view in, std::size_t offset, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[offset + i])) << (8 * i);
  }
  return value;
}

bool known_type(std::uint8_t code) {
  return code >= 1 && code <= 8;
}

bool integer_type(TokenType type) {
  return type != TokenType::float32 && type != TokenType::float64;
}

// The range of token ids `type` holds.
std::pair<std::int64_t, std::int64_t> token_range(TokenType type) {
  switch (type) {
  case TokenType::uint8:
    return {0, 255};
  case TokenType::int8:
    return {-128, 127};
  case TokenType::int16:
    return {-32768, 32767};
  case TokenType::uint16:
    return {0, 65535};
  case TokenType::int32:
    return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
  default:
    return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  }
}

std::int64_t sign_extend(std::uint64_t raw, std::size_t bytes) {
  if (bytes == 8) {
    return static_cast<std::int64_t>(raw);
  }
  const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
  return static_cast<std::int64_t>((raw ^ sign) - sign);
}

std::int64_t decode_token(std::string_view bin, std::size_t offset, TokenType type) {
  const std::size_t size = token_size(type);
  const std::uint64_t raw = get_le(bin, offset, size);
  switch (type) {
  case TokenType::uint8:
  case TokenType::uint16:
    return static_cast<std::int64_t>(raw);
  case TokenType::float32: {
    float value = 0;
    const auto bits = static_cast<std::uint32_t>(raw);
    std::memcpy(&value, &bits, sizeof value);
    return static_cast<std::int64_t>(value);
  }
  case TokenType::float64: {
    double value = 0;
    std::memcpy(&value, &raw, sizeof value);
    return static_cast<std::int64_t>(value);
  }
  default:
    return sign_extend(raw, size);
  }
}

Error bad_index(const fs::path& prefix, const std::string& what) {
  return input_error(idx_path(prefix).string() + ": " + what);
}

} // namespace

std::size_t token_size(TokenType type) {
  switch (type) {
  case TokenType::uint8:
  case TokenType::int8:
    return 1;
  case TokenType::int16:
  case TokenType::uint16:
    return 2;
  case TokenType::int32:
  case TokenType::float32:
    return 4;
  case TokenType::int64:
  case TokenType::float64:
    return 8;
  }
  return 8;
}

const char* to_string(TokenType type) {
  switch (type) {
  case TokenType::uint8:
    return "uint8";
  case TokenType::int8:
    return "int8";
  case TokenType::int16:
    return "int16";
  case TokenType::int32:
    return "int32";
  case TokenType::int64:
    return "int64";
  case TokenType::float64:
    return "float64";
  case TokenType::float32:
    return "float32";
  case TokenType::uint16:
    return "uint16";
  }
  return "unknown";
}

fs::path bin_path(const fs::path& prefix) {
  return fs::path(prefix.string() + ".bin");
}
fs::path idx_path(const fs::path& prefix) {
  return fs::path(prefix.string() + ".idx");
}

Result<IndexedDataset> make_dataset(const std::vector<std::vector<std::int64_t>>& documents,
                                    TokenType type) {
  if (!integer_type(type)) {
    return input_error(std::string("token type ") + to_string(type) + " is not an integer type");
  }
  const auto [low, high] = token_range(type);
  IndexedDataset dataset;
  dataset.type = type;
  dataset.document_indices.push_back(0);
  std::int64_t offset = 0;
  for (const auto& document : documents) {
    for (const std::int64_t token : document) {
      if (token < low || token > high) {
        return input_error("token " + std::to_string(token) + " does not fit " + to_string(type));
      }
      dataset.tokens.push_back(token);
    }
    dataset.sequence_lengths.push_back(static_cast<std::int32_t>(document.size()));
    dataset.sequence_pointers.push_back(offset);
    offset += static_cast<std::int64_t>(document.size() * token_size(type));
    dataset.document_indices.push_back(static_cast<std::int64_t>(dataset.sequence_lengths.size()));
  }
  return dataset;
}

std::string encode_index(const IndexedDataset& dataset) {
  std::string out(k_magic);
  put_le(out, k_version, 8);
  put_le(out, static_cast<std::uint8_t>(dataset.type), 1);
  put_le(out, dataset.sequence_lengths.size(), 8);
  put_le(out, dataset.document_indices.size(), 8);
  for (const std::int32_t length : dataset.sequence_lengths) {
    put_le(out, static_cast<std::uint32_t>(length), 4);
  }
  for (const std::int64_t pointer : dataset.sequence_pointers) {
    put_le(out, static_cast<std::uint64_t>(pointer), 8);
  }
  for (const std::int64_t index : dataset.document_indices) {
    put_le(out, static_cast<std::uint64_t>(index), 8);
  }
  return out;
}

std::string encode_tokens(const IndexedDataset& dataset) {
  std::string out;
  const std::size_t size = token_size(dataset.type);
  out.reserve(dataset.tokens.size() * size);
  for (const std::int64_t token : dataset.tokens) {
    put_le(out, static_cast<std::uint64_t>(token), size);
  }
  return out;
}

Status write_dataset(const fs::path& prefix, const IndexedDataset& dataset) {
  ENVLOCK_TRY(util::write_file_atomic(bin_path(prefix), encode_tokens(dataset)));
  return util::write_file_atomic(idx_path(prefix), encode_index(dataset));
}

Result<IndexedDataset> read_dataset(const fs::path& prefix) {
  ENVLOCK_TRY_ASSIGN(const std::string idx, util::read_file(idx_path(prefix)));
  if (idx.size() < k_header_size || std::string_view(idx).substr(0, 9) != k_magic) {
    return bad_index(prefix, "not a Megatron indexed dataset index (bad magic)");
  }
  if (const std::uint64_t version = get_le(idx, 9, 8); version != k_version) {
    return bad_index(prefix, "unsupported version " + std::to_string(version) + " (expected 1)");
  }
  const auto code = static_cast<std::uint8_t>(idx[17]);
  if (!known_type(code)) {
    return bad_index(prefix, "unknown token type code " + std::to_string(code));
  }
  const std::uint64_t sequences = get_le(idx, 18, 8);
  const std::uint64_t documents = get_le(idx, 26, 8);
  const std::uint64_t body = idx.size() - k_header_size;
  if (sequences > body / 12 || documents > body / 8 || sequences * 12 + documents * 8 > body) {
    return bad_index(prefix, "truncated: " + std::to_string(sequences) + " sequences and " +
                                 std::to_string(documents) + " document entries do not fit");
  }
  IndexedDataset dataset;
  dataset.type = static_cast<TokenType>(code);
  std::size_t at = k_header_size;
  for (std::uint64_t i = 0; i < sequences; ++i, at += 4) {
    dataset.sequence_lengths.push_back(static_cast<std::int32_t>(get_le(idx, at, 4)));
  }
  for (std::uint64_t i = 0; i < sequences; ++i, at += 8) {
    dataset.sequence_pointers.push_back(static_cast<std::int64_t>(get_le(idx, at, 8)));
  }
  for (std::uint64_t i = 0; i < documents; ++i, at += 8) {
    dataset.document_indices.push_back(static_cast<std::int64_t>(get_le(idx, at, 8)));
  }
  ENVLOCK_TRY_ASSIGN(const std::string bin, util::read_file(bin_path(prefix)));
  const std::size_t size = token_size(dataset.type);
  for (std::uint64_t i = 0; i < sequences; ++i) {
    const std::int64_t pointer = dataset.sequence_pointers[i];
    const std::int64_t length = dataset.sequence_lengths[i];
    if (pointer < 0 || length < 0 ||
        static_cast<std::uint64_t>(pointer) + static_cast<std::uint64_t>(length) * size >
            bin.size()) {
      return bad_index(prefix, "sequence " + std::to_string(i) + " lies outside " +
                                   bin_path(prefix).filename().string());
    }
    for (std::int64_t t = 0; t < length; ++t) {
      dataset.tokens.push_back(
          decode_token(bin, static_cast<std::size_t>(pointer) + t * size, dataset.type));
    }
  }
  return dataset;
}

} // namespace envlock::dataset
