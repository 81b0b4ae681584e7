#include "squashfs/sqsh_verify.hpp"

#include "squashfs/tree_digest.hpp"
#include "util/sha256.hpp"

#include <sstream>

namespace envlock::squashfs {

const char* const k_not_verified = "not verified: nothing to compare the file with";

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) {
    out += (out.empty() ? "" : ", ") + word;
  }
  return out;
}

std::string verdict_of(const VerifyReport& report) {
  if (!report.mismatches.empty()) {
    return "mismatch";
  }
  return report.content_compared() ? "ok" : "not verified";
}

} // namespace

bool VerifyReport::content_compared() const {
  for (const auto& c : comparisons) {
    if (c.identifies) {
      return true;
    }
  }
  return false;
}

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
  auto& c = report.comparisons;
  if (const auto& e = request.expected) {
    const std::string& from = request.expected_from;
    c.push_back({"size", std::to_string(e->size), std::to_string(report.size), from, true});
    c.push_back({"sha256", e->sha256, report.sha256, from, true});
    if (request.tree == TreeCheck::compute) {
      c.push_back({"tree digest", e->tree_digest, report.tree_digest, from, true});
    } else {
      report.not_checked.emplace_back("tree digest (give --tree)");
    }
  } else {
    report.not_checked.emplace_back(
        std::string("size, sha256, tree digest: no squashfs result to compare with (give ") +
        "--result FILE)");
  }
  if (const auto& e = request.enroot) {
    const std::string& from = request.enroot_from;
    c.push_back({"mkfs time", std::to_string(e->source_date_epoch),
                 std::to_string(report.superblock.mkfs_time), from, false});
    c.push_back({"compression", compressor_of(e->squash_options),
                 compression_name(report.superblock.compression), from, false});
  } else {
    report.not_checked.emplace_back("mkfs time, compression (give --lock FILE)");
  }
  for (const auto& one : c) {
    if (!one.holds()) {
      report.mismatches.push_back(one.what + ": expected " + one.expected + ", got " + one.got);
    }
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
  // One "checked" line per record compared with, in the order compared.
  std::vector<std::string> order;
  for (const auto& c : report.comparisons) {
    if (order.empty() || order.back() != c.against) {
      order.push_back(c.against);
    }
  }
  for (const auto& against : order) {
    std::vector<std::string> fields;
    for (const auto& c : report.comparisons) {
      if (c.against == against) {
        fields.push_back(c.what);
      }
    }
    out << "checked against " << against << ": " << joined(fields) << "\n";
  }
  for (const auto& line : report.not_checked) {
    out << "not checked: " << line << "\n";
  }
  for (const auto& line : report.mismatches) {
    out << "MISMATCH " << line << "\n";
  }
  if (report.mismatches.empty()) {
    out << (report.content_compared() ? "ok" : k_not_verified) << "\n";
  }
  return out.str();
}

nlohmann::json verify_report_json(const VerifyRequest& request, const VerifyReport& report) {
  const Superblock& sb = report.superblock;
  nlohmann::json checked = nlohmann::json::array();
  for (const auto& c : report.comparisons) {
    checked.push_back({{"what", c.what},
                       {"expected", c.expected},
                       {"got", c.got},
                       {"against", c.against},
                       {"holds", c.holds()}});
  }
  return {
      {"image", request.image.string()},
      {"size", report.size},
      {"sha256", report.sha256},
      {"tree_digest",
       report.tree_digest.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.tree_digest)},
      {"superblock",
       {{"compression", compression_name(sb.compression)},
        {"block_size", sb.block_size},
        {"inodes", sb.inode_count},
        {"mkfs_time", sb.mkfs_time},
        {"bytes_used", sb.bytes_used}}},
      {"checked", checked},
      {"not_checked", report.not_checked},
      {"verdict", verdict_of(report)},
  };
}

} // namespace envlock::squashfs
