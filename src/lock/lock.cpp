#include "lock/lock.hpp"

#include "util/field_reader.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::lock {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

namespace {

json image_pin_json(const ImagePin& p) {
  return {{"reference", p.reference},
          {"name", p.name},
          {"tag", p.tag},
          {"digest", p.digest},
          {"media_type", p.media_type},
          {"platform", p.platform},
          {"platform_digest", p.platform_digest}};
}

ImagePin read_image_pin(FieldReader& r) {
  ImagePin p;
  p.reference = r.str("reference");
  p.name = r.str("name");
  p.tag = r.str("tag");
  p.digest = r.str("digest");
  p.media_type = r.str("media_type");
  p.platform = r.str("platform");
  p.platform_digest = r.str("platform_digest");
  return p;
}

} // namespace

const char* to_string(EnrootLocale locale) {
  return locale == EnrootLocale::c ? "C" : "C.UTF-8";
}

std::optional<EnrootLocale> parse_enroot_locale(std::string_view text) {
  if (text == "C.UTF-8") {
    return EnrootLocale::utf8;
  }
  if (text == "C") {
    return EnrootLocale::c;
  }
  return std::nullopt;
}

json to_json(const Lock& lock) {
  json j = json::object();
  j["schema"] = k_schema;
  j["manifest"] = {{"path", lock.manifest_path}, {"sha256", lock.manifest_sha256}};
  j["image"] = {
      {"name", lock.image.name}, {"tag", lock.image.tag}, {"repository", lock.image.repository}};
  j["base_image"] = image_pin_json(lock.base_image);
  json sources = json::object();
  for (const auto& [name, pin] : lock.sources) {
    sources[name] = {{"git", pin.git}, {"ref", pin.ref}, {"commit", pin.commit}};
  }
  j["sources"] = sources;
  json packages = json::array();
  for (const auto& p : lock.python.uv_lock.packages) {
    json package = {{"name", p.name},
                    {"version", p.version},
                    {"source", {{"kind", p.source_kind}, {"location", p.source_location}}}};
    if (p.not_selected) {
      package["not_selected"] = true;
    }
    packages.push_back(std::move(package));
  }
  const auto& ul = lock.python.uv_lock;
  j["python"] = {{"project", lock.python.project},
                 {"uv", {{"version", lock.python.uv_version}, {"sha256", lock.python.uv_sha256}}},
                 {"sync_args", lock.python.sync_args},
                 {"uv_lock",
                  {{"path", ul.path},
                   {"sha256", ul.sha256},
                   {"version", ul.version},
                   {"revision", ul.revision},
                   {"requires_python", ul.requires_python},
                   {"packages", packages}}},
                 {"pyproject_sha256", lock.python.pyproject_sha256}};
  j["build_args"] = lock.build_args;
  j["expect"] = expect_to_json(lock.expect);
  j["enroot"] = {{"squash_options", lock.enroot.squash_options},
                 {"source_date_epoch", lock.enroot.source_date_epoch}};
  if (lock.context) {
    j["context"] = context_to_json(*lock.context);
  }
  if (lock.recipe) {
    j["recipe"] = recipe_to_json(*lock.recipe);
  }
  if (lock.training) {
    j["training"] = training_to_json(*lock.training);
  }
  if (lock.launch) {
    j["launch"] = launch_to_json(*lock.launch);
  }
  // Written only when not the default, so that locks (and their lock_sha256) from before the
  // field existed keep their bytes.
  if (lock.enroot.locale != EnrootLocale::utf8) {
    j["enroot"]["locale"] = to_string(lock.enroot.locale);
  }
  return j;
}

Result<Lock> from_json(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the lock");
  if (r.error()) {
    return *r.error();
  }
  Lock lock;
  const std::string schema = r.str("schema");
  if (!r.error() && schema != k_schema) {
    return input_error(origin + ": schema: '" + schema + "' is not supported (expected '" +
                       k_schema + "')");
  }
  FieldReader m = r.sub("manifest");
  lock.manifest_path = m.str("path");
  lock.manifest_sha256 = m.str("sha256");
  r.merge(m);

  FieldReader img = r.sub("image");
  lock.image.name = img.str("name");
  lock.image.tag = img.str("tag");
  lock.image.repository = img.str("repository");
  r.merge(img);

  FieldReader base = r.sub("base_image");
  lock.base_image = read_image_pin(base);
  r.merge(base);

  if (const json* sources = r.object("sources"); sources != nullptr) {
    for (const auto& [name, v] : sources->items()) {
      FieldReader s = r.member("sources", name, v);
      lock.sources[name] = GitPin{s.str("git"), s.str("ref"), s.str("commit")};
      r.merge(s);
    }
  }

  FieldReader py = r.sub("python");
  lock.python.project = py.str("project");
  FieldReader uv = py.sub("uv");
  lock.python.uv_version = uv.str("version");
  lock.python.uv_sha256 = uv.str("sha256");
  py.merge(uv);
  lock.python.sync_args = py.strings("sync_args");
  FieldReader ul = py.sub("uv_lock");
  lock.python.uv_lock.path = ul.str("path");
  lock.python.uv_lock.sha256 = ul.str("sha256");
  lock.python.uv_lock.version = ul.integer("version");
  lock.python.uv_lock.revision = ul.integer("revision");
  lock.python.uv_lock.requires_python = ul.str("requires_python");
  if (const json* pkgs = ul.array("packages"); pkgs != nullptr) {
    std::size_t i = 0;
    for (const auto& p : *pkgs) {
      FieldReader pr = ul.element("packages", i++, p);
      UvPackage pkg;
      pkg.name = pr.str("name");
      pkg.version = pr.str("version");
      pkg.not_selected = pr.boolean("not_selected", Presence::optional);
      FieldReader src = pr.sub("source");
      pkg.source_kind = src.str("kind");
      pkg.source_location = src.str("location");
      pr.merge(src);
      ul.merge(pr);
      lock.python.uv_lock.packages.push_back(std::move(pkg));
    }
  }
  py.merge(ul);
  lock.python.pyproject_sha256 = py.str("pyproject_sha256");
  r.merge(py);

  lock.build_args = r.string_map("build_args");
  lock.expect = read_expect(r);

  FieldReader en = r.sub("enroot");
  lock.enroot.squash_options = en.str("squash_options");
  lock.enroot.source_date_epoch = en.integer("source_date_epoch");
  if (en.any("locale") != nullptr) {
    const std::string locale = en.str("locale");
    if (const auto parsed = parse_enroot_locale(locale)) {
      lock.enroot.locale = *parsed;
    } else if (!en.error()) {
      en.fail(en.join("locale"), "'" + locale + "' is not one of C.UTF-8, C");
    }
  }
  r.merge(en);

  if (const json* context = r.any("context"); context != nullptr && !context->is_null()) {
    lock.context = read_context(r);
  }
  // A string is the template recipe of locks written before the section was an object.
  if (const json* recipe = r.any("recipe");
      recipe != nullptr && !recipe->is_null() && !recipe->is_string()) {
    lock.recipe = read_recipe(r);
  }
  if (r.any("training") != nullptr) {
    lock.training = read_training(r);
  }
  if (r.any("launch") != nullptr) {
    lock.launch = read_launch(r);
  }
  r.finish();
  if (r.error()) {
    return *r.error();
  }
  return lock;
}

Result<Lock> read_lock(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const json j, util::read_json_file(path));
  return from_json(j, path.string());
}

Status write_lock(const std::filesystem::path& path, const Lock& lock) {
  return util::write_json_file(path, to_json(lock));
}

std::string lock_sha256(const Lock& lock) {
  return util::sha256_hex(util::canonical_json(to_json(lock)));
}

namespace {

bool is_lower_hex(std::string_view text, std::size_t length) {
  return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool is_sha256_digest(std::string_view text) {
  return text.starts_with("sha256:") && is_lower_hex(text.substr(7), 64);
}

} // namespace

Status check_pins(const Lock& lock, const std::string& origin) {
  const auto problem = [&](const std::string& field, const std::string& value,
                           const char* what) -> Status {
    return input_error(origin + ": " + field + ": '" + value + "' is not " + what);
  };
  const auto& base = lock.base_image;
  if (base.name.empty()) {
    return input_error(origin + ": base_image.name: must not be empty");
  }
  constexpr const char* digest = "a sha256 digest (sha256: and 64 hex digits)";
  if (!is_sha256_digest(base.digest)) {
    return problem("base_image.digest", base.digest, digest);
  }
  if (!base.platform_digest.empty() && !is_sha256_digest(base.platform_digest)) {
    return problem("base_image.platform_digest", base.platform_digest, digest);
  }
  for (const auto& [name, pin] : lock.sources) {
    if (!is_lower_hex(pin.commit, 40)) {
      return problem("sources." + name + ".commit", pin.commit, "a full commit (40 hex digits)");
    }
  }
  constexpr const char* sha = "a sha256 (64 hex digits)";
  // python.uv.sha256 is empty when the manifest pins none (render requires it).
  if (!lock.python.uv_sha256.empty() && !is_lower_hex(lock.python.uv_sha256, 64)) {
    return problem("python.uv.sha256", lock.python.uv_sha256, sha);
  }
  for (const auto& [field, value] : {std::pair<const char*, const std::string&>{
                                         "python.uv_lock.sha256", lock.python.uv_lock.sha256},
                                     {"python.pyproject_sha256", lock.python.pyproject_sha256}}) {
    if (!is_lower_hex(value, 64)) {
      return problem(field, value, sha);
    }
  }
  return {};
}

} // namespace envlock::lock
