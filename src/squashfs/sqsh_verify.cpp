#include "squashfs/sqsh_verify.hpp"

#include "squashfs/tree_digest.hpp"
#include "util/sha256.hpp"

#include <sstream>

namespace envlock::squashfs {

namespace {

void compare(std::vector<std::string>& out, const std::string& what, const std::string& expected,
             const std::string& got) {
  if (expected != got) {
    out.push_back(what + ": expected " + expected + ", got " + got);
  }
}

} // namespace

std::string compressor_of(const std::string& squash_options) {
  std::istringstream words(squash_options);
  std::string word;
  while (words >> word) {
    if (word == "-comp" && (words >> word)) {
      return word;
    }
  }
  return "gzip";
}

Result<VerifyReport> verify_sqsh(const VerifyRequest& request) {
  VerifyReport report;
  ENVLOCK_TRY_ASSIGN(report.superblock, read_superblock(request.image));
  std::error_code ec;
  report.size = std::filesystem::file_size(request.image, ec);
  if (ec) {
    return input_error(request.image.string() + ": " + ec.message());
  }
  ENVLOCK_TRY_ASSIGN(report.sha256, util::sha256_file_hex(request.image));
  if (request.tree == TreeCheck::compute) {
    ENVLOCK_TRY_ASSIGN(report.tree_digest, tree_digest_of(request.image));
  }
  auto& m = report.mismatches;
  if (const auto& e = request.expected) {
    compare(m, "size", std::to_string(e->size), std::to_string(report.size));
    compare(m, "sha256", e->sha256, report.sha256);
    if (request.tree == TreeCheck::compute) {
      compare(m, "tree digest", e->tree_digest, report.tree_digest);
    }
  }
  if (const auto& e = request.enroot) {
    compare(m, "mkfs time", std::to_string(e->source_date_epoch),
            std::to_string(report.superblock.mkfs_time));
    compare(m, "compression", compressor_of(e->squash_options),
            compression_name(report.superblock.compression));
  }
  return report;
}

std::string render_verify_report(const VerifyRequest& request, const VerifyReport& report) {
  const Superblock& sb = report.superblock;
  std::ostringstream out;
  out << "image: " << request.image.string() << "\n"
      << "size: " << report.size << "\n"
      << "sha256: " << report.sha256 << "\n"
      << "compression: " << compression_name(sb.compression) << "\n"
      << "block size: " << sb.block_size << "\n"
      << "inodes: " << sb.inode_count << "\n"
      << "mkfs time: " << sb.mkfs_time << "\n"
      << "bytes used: " << sb.bytes_used << "\n";
  if (!report.tree_digest.empty()) {
    out << "tree digest: " << report.tree_digest << "\n";
  }
  for (const auto& line : report.mismatches) {
    out << "MISMATCH " << line << "\n";
  }
  if (report.mismatches.empty()) {
    out << "ok\n";
  }
  return out.str();
}

} // namespace envlock::squashfs
