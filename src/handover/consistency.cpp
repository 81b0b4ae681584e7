#include "handover/consistency.hpp"

#include <optional>

namespace envlock::handover {

namespace {

// "sha256:HEX" for a descriptor's sha256 digest; nothing when it has none.
std::optional<std::string> sha256_of(const formats::ResourceDescriptor& descriptor, bool prefixed) {
  const auto it = descriptor.digest.find("sha256");
  if (it == descriptor.digest.end()) {
    return std::nullopt;
  }
  return (prefixed ? "sha256:" : "") + it->second;
}

// The digest after '@' in "REF@sha256:...", or "".
std::string reference_digest(const std::string& reference) {
  const auto at = reference.rfind('@');
  return at == std::string::npos ? std::string() : reference.substr(at + 1);
}

class Mismatches {
public:
  // Record `a` cites `what` as `a_value`; record `b` holds `b_value` ("built", "is").
  void compare(const Record& a, const std::string& what, const std::string& a_value,
               const Record& b, const std::string& b_verb, const std::string& b_value,
               const std::string& b_note = "") {
    if (a_value.empty() || b_value.empty() || a_value == b_value) {
      return;
    }
    m_lines.push_back(a.name + " cites " + what + " " + a_value + "; " + b.name + " " + b_verb +
                      " " + b_value + b_note);
  }
  std::vector<std::string> take() { return std::move(m_lines); }

private:
  std::vector<std::string> m_lines;
};

} // namespace

std::vector<std::string> mismatched_records(const Records& r) {
  Mismatches m;
  const std::string lock_sha = r.lock ? r.lock->record.sha256 : "";
  std::string image; // the image the build made, else the one the provenance names
  std::string image_from;
  if (r.provenance) {
    const auto& s = r.provenance->value;
    const Record& p = r.provenance->record;
    if (r.lock) {
      m.compare(p, "the lock sha256", sha256_of(s.lock_file, false).value_or(""), r.lock->record,
                "is", lock_sha);
    }
    const auto image_subject =
        s.subjects.empty() ? std::nullopt : sha256_of(s.subjects.front(), true);
    if (r.build_result && image_subject) {
      m.compare(p, "the image", *image_subject, r.build_result->record, "built",
                r.build_result->value.digest);
    }
    if (r.squashfs_result && s.subjects.size() > 1) {
      m.compare(p, "the .sqsh sha256", sha256_of(s.subjects[1], false).value_or(""),
                r.squashfs_result->record, "describes", r.squashfs_result->value.sha256,
                " (" + r.squashfs_result->value.file_name + ")");
    }
  }
  if (r.build_result && r.lock) {
    m.compare(r.build_result->record, "the lock sha256", r.build_result->value.lock_sha256,
              r.lock->record, "is", lock_sha);
  }
  if (r.build_result && r.squashfs_result) {
    const auto& sq = r.squashfs_result->value;
    const std::string built = r.build_result->value.digest;
    const std::string squashed = reference_digest(sq.image_reference);
    // The result names the reference it was given (the image index or the manifest) and the
    // platform manifest it squashed: either may be the digest the build pushed.
    if (!built.empty() && built != sq.manifest_digest) {
      m.compare(r.squashfs_result->record, "the image",
                squashed.empty() ? sq.manifest_digest : squashed, r.build_result->record, "built",
                built);
    }
  }
  return m.take();
}

} // namespace envlock::handover
