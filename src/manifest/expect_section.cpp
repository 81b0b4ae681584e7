#include "manifest/formats.hpp"
#include "manifest/scalar.hpp"
#include "manifest/sections.hpp"
#include "node/facts.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::manifest {

namespace {

// A string in `format`, or empty (not checked); `describe` names the format for the error.
Result<std::string> read_version(const Reader& reader, const Field& map, std::string_view key,
                                 bool (*format)(std::string_view), std::string_view describe) {
  const auto field = reader.find(map, key);
  if (!field) {
    return std::string();
  }
  ENVLOCK_TRY_ASSIGN(std::string text, reader.string(*field));
  if (!text.empty() && !format(text)) {
    return reader.format_error(*field, describe);
  }
  return text;
}

// A plain integer >= 0.
// The largest time a squashfs inode holds (32 bits): mksquashfs refuses a later one.
constexpr std::int64_t k_max_squashfs_time = 4294967295;

Result<std::int64_t> read_count(const Reader& reader, const Field& field) {
  if (kind_of(field.value) != Kind::integer) {
    return reader.type_error(field, "a non-negative integer");
  }
  ENVLOCK_TRY_ASSIGN(const std::int64_t value, reader.integer(field));
  if (value < 0) {
    return reader.format_error(field, "a non-negative integer");
  }
  return value;
}

Result<Gpus> read_gpus(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"count", "model"}));
  Gpus gpus;
  if (const auto count = reader.find(field, "count")) {
    ENVLOCK_TRY_ASSIGN(gpus.count, read_count(reader, *count));
  }
  if (const auto model = reader.find(field, "model")) {
    ENVLOCK_TRY_ASSIGN(gpus.model, reader.string(*model));
  }
  return gpus;
}

Result<std::map<std::string, double>> read_busbw(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  std::map<std::string, double> minimums;
  for (const auto& entry : reader.entries(field)) {
    ENVLOCK_TRY_ASSIGN(const double value, reader.number(entry));
    if (value <= 0) {
      return reader.format_error(entry, "a positive number of GB/s");
    }
    minimums[entry.key.Scalar()] = value;
  }
  return minimums;
}

// One key of expect.host.health, typed at its line and column; the lock's reader checks the
// same again.
Status check_health_entry(const Reader& reader, const Field& entry) {
  const std::string key = entry.key.Scalar();
  const Kind kind = kind_of(entry.value);
  if (key == "fabric_manager" || key == "nvlsm" || key == "gpudirect_rdma") {
    return kind == Kind::boolean ? Status{} : Status(reader.type_error(entry, "true or false"));
  }
  if (key == "ib_link_layer" || key == "mig") {
    ENVLOCK_TRY_ASSIGN(const std::string word, reader.string(entry));
    const std::vector<std::string> words =
        key == "mig" ? std::vector<std::string>{"disabled", "enabled", "any"}
                     : std::vector<std::string>{"InfiniBand", "Ethernet"};
    if (kind != Kind::string || std::find(words.begin(), words.end(), word) == words.end()) {
      return reader.format_error(entry, "one of " + util::join(words, ", "));
    }
    return {};
  }
  if (key == "tolerated_xids") {
    if (!entry.value.IsSequence()) {
      return reader.type_error(entry, "a list of XID numbers");
    }
    for (const auto& item : entry.value) {
      if (kind_of(item) != Kind::integer || item.as<std::int64_t>(0) < 1) {
        return reader.error(entry, "'" + entry.path +
                                       "' must be a list of XID numbers (integers "
                                       ">= 1), got '" +
                                       item.Scalar() + "'");
      }
    }
    return {};
  }
  const std::int64_t least = key == "nvlink_links" || key == "ib_ports" ? 0 : 1;
  if (kind != Kind::integer) {
    return reader.type_error(entry, "an integer >= " + std::to_string(least));
  }
  ENVLOCK_TRY_ASSIGN(const std::int64_t value, reader.integer(entry));
  if (value < least) {
    return reader.format_error(entry, "an integer >= " + std::to_string(least));
  }
  return {};
}

// expect.host.health: what a healthy node of this kind has (docs/manual/health.md).
Result<std::optional<lock::HealthExpect>> read_health_section(const Reader& reader,
                                                              const Field& host) {
  const auto field = reader.find(host, "health");
  if (!field) {
    return std::optional<lock::HealthExpect>();
  }
  ENVLOCK_TRY(reader.mapping(*field));
  ENVLOCK_TRY(reader.only_keys(*field, lock::health_keys()));
  for (const auto& entry : reader.entries(*field)) {
    ENVLOCK_TRY(check_health_entry(reader, entry));
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, reader.json(*field));
  auto health = lock::read_health_expect(value);
  if (!health) {
    return reader.error(*field, health.error().message);
  }
  return std::optional<lock::HealthExpect>(std::move(*health));
}

struct ManifestHostSection {
  lock::HostExpect facts;
  std::optional<lock::HealthExpect> health;
};

// expect.host: host fact -> a text, a number or a list of texts; and expect.host.health.
Result<ManifestHostSection> read_host(const Reader& reader, const Field& map) {
  const auto field = reader.find(map, "host");
  if (!field) {
    return ManifestHostSection{};
  }
  ENVLOCK_TRY(reader.mapping(*field));
  // Only the facts `envlock node` gathers: a misspelt key fails here, not on the cluster.
  std::vector<std::string> keys = node::fact_keys();
  keys.emplace_back("health");
  ENVLOCK_TRY(reader.only_keys(*field, keys));
  ManifestHostSection section;
  ENVLOCK_TRY_ASSIGN(section.health, read_health_section(reader, *field));
  for (const auto& entry : reader.entries(*field)) {
    if (entry.key.Scalar() == "health") {
      continue;
    }
    if (entry.value.IsMap() || (entry.value.IsSequence() && [&] {
          for (const auto& item : entry.value) {
            if (!item.IsScalar()) {
              return true;
            }
          }
          return false;
        }())) {
      return reader.type_error(entry, "a string, a number or a list of strings");
    }
  }
  ENVLOCK_TRY_ASSIGN(nlohmann::json value, reader.json(*field));
  value.erase("health");
  auto host = lock::read_host_expect(value);
  if (!host) {
    return reader.error(*field, host.error().message);
  }
  section.facts = std::move(*host);
  return section;
}

// expect.resume: the resume check's plan (steps, checkpoint_step: integers >= 1) and tolerances
// (numbers >= 0), kept as JSON; docs/manual/resume.md.
Result<lock::ResumeExpect> read_resume(const Reader& reader, const Field& map) {
  const auto field = reader.find(map, "resume");
  if (!field) {
    return lock::ResumeExpect{};
  }
  ENVLOCK_TRY(reader.mapping(*field));
  ENVLOCK_TRY(reader.only_keys(*field, {"steps", "checkpoint_step", "loss_abs", "loss_rel",
                                        "lr_abs", "param_abs", "param_rel"}));
  for (const auto& entry : reader.entries(*field)) {
    const std::string key = entry.key.Scalar();
    if (key == "steps" || key == "checkpoint_step") {
      ENVLOCK_TRY_ASSIGN(const std::int64_t steps, read_count(reader, entry));
      if (steps < 1) {
        return reader.format_error(entry, "an integer >= 1");
      }
      continue;
    }
    ENVLOCK_TRY_ASSIGN(const double tolerance, reader.number(entry));
    if (tolerance < 0) {
      return reader.format_error(entry, "a number >= 0");
    }
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, reader.json(*field));
  auto resume = lock::read_resume_expect(value);
  if (!resume) {
    return reader.error(*field, resume.error().message);
  }
  return *resume;
}

// expect.links: GPU model -> {peer_gbps, host_to_device_gbps, device_to_host_gbps}, each a
// number > 0 (GB/s); docs/manual/verify.md.
Result<lock::LinksExpect> read_links(const Reader& reader, const Field& map) {
  const auto field = reader.find(map, "links");
  if (!field) {
    return lock::LinksExpect{};
  }
  ENVLOCK_TRY(reader.mapping(*field));
  for (const auto& model : reader.entries(*field)) {
    ENVLOCK_TRY(reader.mapping(model));
    ENVLOCK_TRY(reader.only_keys(model, lock::link_keys()));
    for (const auto& entry : reader.entries(model)) {
      ENVLOCK_TRY_ASSIGN(const double minimum, reader.number(entry));
      if (!(minimum > 0)) {
        return reader.format_error(entry, "a positive number of GB/s");
      }
    }
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, reader.json(*field));
  auto links = lock::read_links_expect(value);
  if (!links) {
    return reader.error(*field, links.error().message);
  }
  return std::move(*links);
}

} // namespace

Result<Expect> read_expect(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"cuda", "nccl", "pytorch", "python", "gpus",
                                       "nccl_busbw_gbps", "host", "resume", "links"}));
  Expect expect;
  ENVLOCK_TRY_ASSIGN(expect.cuda,
                     read_version(reader, field, "cuda", is_major_minor, "MAJOR.MINOR, e.g. 13.3"));
  ENVLOCK_TRY_ASSIGN(expect.nccl, read_version(reader, field, "nccl", is_major_minor_patch,
                                               "MAJOR.MINOR.PATCH, e.g. 2.30.7"));
  ENVLOCK_TRY_ASSIGN(expect.pytorch,
                     read_version(reader, field, "pytorch", is_version_prefix,
                                  "a version starting with MAJOR.MINOR, e.g. 2.13.0a0+8145d630e8"));
  ENVLOCK_TRY_ASSIGN(expect.python, read_version(reader, field, "python", is_major_minor,
                                                 "MAJOR.MINOR, e.g. 3.12"));
  if (const auto gpus = reader.find(field, "gpus")) {
    ENVLOCK_TRY_ASSIGN(expect.gpus, read_gpus(reader, *gpus));
  }
  if (const auto busbw = reader.find(field, "nccl_busbw_gbps")) {
    ENVLOCK_TRY_ASSIGN(expect.nccl_busbw_gbps, read_busbw(reader, *busbw));
  }
  ENVLOCK_TRY_ASSIGN(ManifestHostSection host, read_host(reader, field));
  expect.host = std::move(host.facts);
  expect.health = std::move(host.health);
  ENVLOCK_TRY_ASSIGN(expect.resume, read_resume(reader, field));
  ENVLOCK_TRY_ASSIGN(expect.links, read_links(reader, field));
  return expect;
}

Result<Enroot> read_enroot(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"squash_options", "source_date_epoch", "locale"}));
  Enroot enroot;
  if (const auto options = reader.find(field, "squash_options")) {
    ENVLOCK_TRY_ASSIGN(enroot.squash_options, reader.string(*options));
  }
  if (const auto epoch = reader.find(field, "source_date_epoch")) {
    ENVLOCK_TRY_ASSIGN(enroot.source_date_epoch, read_count(reader, *epoch));
    if (enroot.source_date_epoch > k_max_squashfs_time) {
      return reader.format_error(*epoch, "at most 4294967295 (a squashfs inode time)");
    }
  }
  if (const auto locale = reader.find(field, "locale")) {
    ENVLOCK_TRY_ASSIGN(enroot.locale, reader.string(*locale));
    if (enroot.locale != "C.UTF-8" && enroot.locale != "C") {
      return reader.format_error(*locale, "one of C.UTF-8, C");
    }
  }
  return enroot;
}

} // namespace envlock::manifest
