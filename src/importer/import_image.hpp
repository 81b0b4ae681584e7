// Making a pinned image's .sqsh in the cache, natively (`envlock squashfs`, run with its scratch
// space in the import folder), and publishing it: the image and its record are built in
// tmp/KEY.PID.XXXXXX, checked against the expected sha256 when one is recorded, then the record is
// written and the .sqsh renamed into images/ (rename(2): a reader sees no image or the whole
// image). A process killed on the way takes its `envlock squashfs` with it and leaves only its
// tmp folder, which the next import of the key removes.
#pragma once

#include "formats/image_record.hpp"
#include "importer/cache.hpp"
#include "importer/expected.hpp"
#include "importer/pins.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <functional>
#include <string>

namespace envlock::importer {

struct ImportJob {
  const Cache* cache = nullptr;
  std::string key;
  Pin pin;
  Expectation expected;
  oci::RegistryOptions registry;
  std::function<void(const std::string&)> note;
};

// The record of `pin` squashed as `result` under `key`, checked against `expected`.
formats::ImageRecord image_record_for(const Pin& pin, const Expectation& expected,
                                      const std::string& key,
                                      const formats::SquashfsResult& result);

// Imports and publishes the image; call with the key's lock held. A check failure (exit 1) when
// the import's sha256 differs from the expected one (the import is quarantined); otherwise the
// errors of the squashfs pipeline.
Result<formats::ImageRecord> import_image(const ImportJob& job);

} // namespace envlock::importer
