#include "rollback/provenance_check.hpp"

#include "provenance/signing.hpp"
#include "util/strings.hpp"

namespace envlock::rollback {

namespace {

// The key id that signed `file`, when it is the previous image's signed provenance; a check
// failure saying why it is not otherwise.
Result<std::string> attached_signer(const AttachedFile& file, const ProvenanceTarget& target,
                                    const oci::ImageRef& image, const provenance::Key& key,
                                    const std::string& key_origin) {
  const std::string origin = "attestation " + file.digest;
  ENVLOCK_TRY_ASSIGN(const provenance::VerifiedStatement verified,
                     provenance::verify_envelope(file.bytes, origin, key, key_origin));
  const std::string lock = provenance::statement_lock_sha256(verified.statement);
  if (lock != target.lock_sha256) {
    return check_failed(origin + ": describes the lock " + (lock.empty() ? "(none)" : lock) +
                        ", not " + target.lock_name + " (" + target.lock_sha256 + ")");
  }
  ENVLOCK_TRY(provenance::check_subject_digest(verified.statement, image.digest, origin));
  return verified.keyid;
}

} // namespace

Check check_attached_provenance(const ProvenanceTarget& target, const provenance::Key& key,
                                const std::string& key_origin, const AttachedProbe& probe) {
  Check check{"image.provenance", target.image, Outcome::fail, "", "", target.source};
  const std::string what = "previous image " + target.image + ": ";
  auto image = oci::parse_image_ref(target.image);
  if (!image || image->digest.empty()) {
    check.reason = what + "not an image by digest";
    return check;
  }
  auto attached = probe(*image);
  if (!attached) {
    check.outcome = Outcome::error;
    check.reason = what + "its attestations cannot be listed: " + attached.error().message;
    return check;
  }
  if (attached->files.empty()) {
    check.reason = what + "no provenance attached (looked in " + attached->looked_in +
                   "); attach it with envlock attest push";
    return check;
  }
  std::vector<std::string> problems;
  for (const auto& file : attached->files) {
    const auto keyid = attached_signer(file, target, *image, key, key_origin);
    if (keyid) {
      check.outcome = Outcome::pass;
      check.found = "signed provenance " + file.digest + " (key " + *keyid + ") of " +
                    target.lock_name + ", from " + attached->looked_in;
      return check;
    }
    problems.push_back(keyid.error().message);
  }
  check.reason = what + "no attached provenance holds: " + util::join(problems, "; ");
  return check;
}

} // namespace envlock::rollback
