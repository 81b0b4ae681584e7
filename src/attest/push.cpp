#include "attest/push.hpp"

#include "attest/tag_index.hpp"
#include "util/interrupt.hpp"
#include "util/sha256.hpp"

#include <random>
#include <unistd.h>

namespace envlock::attest {

using nlohmann::json;

namespace {

std::chrono::milliseconds settle_time(const PushSettings& settings) {
  static std::minstd_rand generator(static_cast<unsigned>(::getpid()) ^
                                    static_cast<unsigned>(std::random_device{}()));
  const auto spread = std::max<long long>(1, settings.settle.count());
  return settings.settle + std::chrono::milliseconds(static_cast<long long>(generator()) % spread);
}

// Adds `descriptor` to the index at the referrers tag of `subject`.
Result<int> update_tag_index(oci::RegistryClient& client, const oci::ImageRef& image,
                             const std::string& tag, const json& descriptor,
                             const PushSettings& settings) {
  const std::string digest = descriptor["digest"].get<std::string>();
  const std::string origin = "tag " + tag + " of " + image.name();
  int writes = 0;
  int confirmations = 0;
  for (int round = 1; round <= settings.max_rounds; ++round) {
    ENVLOCK_TRY_ASSIGN(const auto found, client.find_manifest(image, tag));
    json index = empty_index();
    std::string etag;
    if (found) {
      ENVLOCK_TRY_ASSIGN(index, read_tag_index(found->body, found->media_type, origin));
      etag = found->etag;
    }
    if (index_lists(index, digest)) {
      if (writes > 0 && ++confirmations < 2) {
        ENVLOCK_TRY(util::interruptible_sleep(settle_time(settings)));
        continue;
      }
      return writes;
    }
    confirmations = 0;
    const std::string bytes = index_bytes(with_descriptor(std::move(index), descriptor));
    ENVLOCK_TRY_ASSIGN(const oci::ManifestPushed put,
                       client.put_manifest(image, tag, oci::media_type::oci_index, bytes, etag));
    if (!put.precondition_failed) {
      ++writes;
    }
    ENVLOCK_TRY(util::interruptible_sleep(settle_time(settings)));
  }
  return env_error(origin + ": other writers kept replacing the referrers index; " + digest +
                   " not listed after " + std::to_string(settings.max_rounds) + " reads");
}

} // namespace

Result<Subject> subject_of(oci::RegistryClient& client, const oci::ImageRef& image) {
  if (image.digest.empty()) {
    return input_error(image.to_string() +
                       ": give the image by digest (REF@sha256:...); an attestation is about one "
                       "manifest");
  }
  ENVLOCK_TRY_ASSIGN(const oci::ManifestResponse manifest,
                     client.get_manifest(image, image.digest));
  Subject subject;
  subject.digest = manifest.digest;
  subject.size = manifest.body.size();
  const json doc = json::parse(manifest.body, nullptr, /*allow_exceptions=*/false);
  subject.media_type = manifest.media_type.substr(0, manifest.media_type.find(';'));
  if (doc.is_object() && doc.contains("mediaType") && doc["mediaType"].is_string()) {
    subject.media_type = doc["mediaType"].get<std::string>();
  }
  return subject;
}

Result<Pushed> push_attestation(oci::RegistryClient& client, const oci::ImageRef& image,
                                const AttestationFile& file, const PushSettings& settings) {
  ENVLOCK_TRY_ASSIGN(const Subject subject, subject_of(client, image));
  ENVLOCK_TRY(client.push_blob(image, k_empty_config));
  ENVLOCK_TRY(client.push_blob(image, file.bytes));
  const std::string manifest = artifact_manifest(file, subject);
  Pushed out;
  out.title = file.title;
  out.kind = file.kind;
  ENVLOCK_TRY_ASSIGN(const oci::ManifestPushed put,
                     client.put_manifest(image, "sha256:" + util::sha256_hex(manifest),
                                         oci::media_type::oci_manifest, manifest));
  out.digest = put.digest;
  if (put.subject == subject.digest) {
    out.listing = Listing::referrers_api;
    return out;
  }
  out.listing = Listing::tag_schema;
  out.tag = referrers_tag(subject.digest);
  ENVLOCK_TRY_ASSIGN(out.index_writes,
                     update_tag_index(client, image, out.tag,
                                      referrer_descriptor(manifest, put.digest), settings));
  return out;
}

} // namespace envlock::attest
