#include "lock/lock.hpp"

#include "lock/field_reader.hpp"

#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::lock {

using nlohmann::json;

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

std::map<std::string, std::string> read_string_map(FieldReader& parent, const char* key) {
  std::map<std::string, std::string> out;
  const json* obj = parent.object(key);
  if (obj == nullptr) {
    return out;
  }
  for (const auto& [k, v] : obj->items()) {
    if (!v.is_string()) {
      parent.fail(parent.join(key) + "." + k, "must be a string");
      continue;
    }
    out[k] = v.get<std::string>();
  }
  return out;
}

// The lock's "recipe" object, checked as render, context, build and lock --check read it.
std::optional<Recipe> read_recipe(const json& value, FieldReader& top) {
  const auto malformed = [&](const std::string& what) {
    top.fail("recipe", what);
    return std::optional<Recipe>();
  };
  if (!value.is_object()) {
    return malformed("expected an object");
  }
  for (const char* key : {"upstream", "path", "target", "sha256"}) {
    if (!value.contains(key) || !value.at(key).is_string()) {
      return malformed(std::string(key) + ": expected a string");
    }
  }
  Recipe recipe{value.at("upstream"), value.at("path"), value.at("target"), value.at("sha256"), {}};
  if (!value.contains("images") || !value.at("images").is_array()) {
    return malformed("images: expected a list");
  }
  const auto is_text = [](const json& object, const char* key) {
    return object.contains(key) && object.at(key).is_string();
  };
  for (const auto& item : value.at("images")) {
    if (!item.is_object() || !item.contains("line") || !item.at("line").is_number_integer() ||
        !is_text(item, "from") || !is_text(item, "image") || !is_text(item, "digest") ||
        !is_text(item, "platform_digest")) {
      return malformed("images: each needs line, from, image, digest and platform_digest");
    }
    recipe.images.push_back(RecipeImage{item.at("line").get<int>(), item.at("from"),
                                        item.at("image"), item.at("digest"),
                                        item.at("platform_digest")});
  }
  return recipe;
}

std::optional<std::vector<ContextFile>> read_context(const json& value, FieldReader& top) {
  std::vector<ContextFile> files;
  if (!value.is_array()) {
    top.fail("context", "must be an array");
    return std::nullopt;
  }
  for (const auto& item : value) {
    if (!item.is_object() || !item.contains("path") || !item.at("path").is_string() ||
        !item.contains("sha256") || !item.at("sha256").is_string() || item.size() != 2) {
      top.fail("context", "each entry needs exactly path and sha256 (strings)");
      return std::nullopt;
    }
    files.push_back(ContextFile{item.at("path"), item.at("sha256")});
  }
  return files;
}

Result<double> read_tolerance(const json& value, const std::string& key) {
  if (!value.is_number() || value.get<double>() < 0) {
    return input_error("expect.resume." + key + ": expected a number >= 0");
  }
  return value.get<double>();
}

Result<std::int64_t> read_step(const json& value, const std::string& key) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1) {
    return input_error("expect.resume." + key + ": expected an integer >= 1");
  }
  return value.get<std::int64_t>();
}

// expect.host with expect.host.health inside it, when declared.
json expect_host_json(const Expect& e) {
  json host = host_expect_to_json(e.host);
  if (e.health) {
    host["health"] = health_expect_to_json(*e.health);
  }
  return host;
}

} // namespace

Result<HostExpect> read_host_expect(const json& value) {
  HostExpect out;
  if (value.is_null()) {
    return out;
  }
  if (!value.is_object()) {
    return input_error("expect.host: expected a mapping");
  }
  const auto entry_of = [](const json& item) {
    return item.is_string() ? HostExpectation::Entry{item.get<std::string>(), false}
                            : HostExpectation::Entry{item.dump(), true};
  };
  for (const auto& [key, item] : value.items()) {
    HostExpectation e;
    if (item.is_string() || item.is_number()) {
      e.entries = {entry_of(item)};
    } else if (item.is_array() && !item.empty()) {
      e.list = true;
      for (const auto& entry : item) {
        if (!entry.is_string() && !entry.is_number()) {
          return input_error("expect.host." + key + ": each entry must be a string or a number");
        }
        e.entries.push_back(entry_of(entry));
      }
    } else {
      return input_error("expect.host." + key +
                         ": must be a string, a number or a non-empty list of them");
    }
    out[key] = std::move(e);
  }
  return out;
}

json host_expect_to_json(const HostExpect& host) {
  json out = json::object();
  for (const auto& [key, e] : host) {
    json items = json::array();
    for (const auto& entry : e.entries) {
      items.push_back(entry.number ? json::parse(entry.text) : json(entry.text));
    }
    out[key] = e.list || items.empty() ? items : items.front();
  }
  return out;
}

json resume_expect_to_json(const ResumeExpect& r) {
  json out = json::object();
  if (r.steps) {
    out["steps"] = *r.steps;
  }
  if (r.checkpoint_step) {
    out["checkpoint_step"] = *r.checkpoint_step;
  }
  const std::pair<const char*, const std::optional<DeclaredNumber>*> numbers[] = {
      {"loss_abs", &r.loss_abs},
      {"loss_rel", &r.loss_rel},
      {"lr_abs", &r.lr_abs},
      {"param_abs", &r.param_abs},
      {"param_rel", &r.param_rel}};
  for (const auto& [key, number] : numbers) {
    if (*number) {
      out[key] = declared_number_json(**number);
    }
  }
  return out;
}

const std::vector<std::string>& resume_keys() {
  static const std::vector<std::string> keys = {"steps",  "checkpoint_step", "loss_abs", "loss_rel",
                                                "lr_abs", "param_abs",       "param_rel"};
  return keys;
}

Result<ResumeExpect> read_resume_expect(const json& value) {
  ResumeExpect out;
  if (value.is_null()) {
    return out;
  }
  if (!value.is_object()) {
    return input_error("expect.resume: expected a mapping");
  }
  for (const auto& [key, item] : value.items()) {
    const auto& keys = resume_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string message = "expect.resume: unknown key '" + key + "'";
      if (auto close = util::closest_match(key, keys)) {
        message += "; did you mean '" + *close + "'?";
      }
      return input_error(message);
    }
    if (key == "steps") {
      ENVLOCK_TRY_ASSIGN(out.steps, read_step(item, key));
    } else if (key == "checkpoint_step") {
      ENVLOCK_TRY_ASSIGN(out.checkpoint_step, read_step(item, key));
    } else {
      ENVLOCK_TRY_ASSIGN(const double number, read_tolerance(item, key));
      const DeclaredNumber declared{number, item.is_number_integer()};
      (key == "loss_abs"    ? out.loss_abs
       : key == "loss_rel"  ? out.loss_rel
       : key == "lr_abs"    ? out.lr_abs
       : key == "param_abs" ? out.param_abs
                            : out.param_rel) = declared;
    }
  }
  const std::int64_t steps = out.steps.value_or(100);
  const std::int64_t checkpoint = out.checkpoint_step.value_or(steps / 2);
  if (checkpoint >= steps || checkpoint < 1) {
    return input_error("expect.resume.checkpoint_step: must be between 1 and steps - 1 (" +
                       std::to_string(steps - 1) + ")");
  }
  return out;
}

json recipe_to_json(const Recipe& recipe) {
  json images = json::array();
  for (const auto& image : recipe.images) {
    images.push_back({{"line", image.line},
                      {"from", image.written},
                      {"image", image.image},
                      {"digest", image.digest},
                      {"platform_digest", image.platform_digest}});
  }
  return {{"upstream", recipe.upstream},
          {"path", recipe.path},
          {"target", recipe.target},
          {"sha256", recipe.sha256},
          {"images", std::move(images)}};
}

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
    packages.push_back({{"name", p.name},
                        {"version", p.version},
                        {"source", {{"kind", p.source_kind}, {"location", p.source_location}}}});
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
  const auto& e = lock.expect;
  j["expect"] = {{"cuda", e.cuda},
                 {"nccl", e.nccl},
                 {"pytorch", e.pytorch},
                 {"python", e.python},
                 {"gpus", {{"count", e.gpus.count}, {"model", e.gpus.model}}},
                 {"nccl_busbw_gbps", e.nccl_busbw_gbps},
                 {"host", expect_host_json(e)},
                 {"resume", resume_expect_to_json(e.resume)}};
  // Written only when declared, so that locks (and their lock_sha256) from before the field
  // existed keep their bytes.
  if (!e.links.empty()) {
    j["expect"]["links"] = links_expect_to_json(e.links);
  }
  j["enroot"] = {{"squash_options", lock.enroot.squash_options},
                 {"source_date_epoch", lock.enroot.source_date_epoch}};
  if (lock.context) {
    json files = json::array();
    for (const auto& file : *lock.context) {
      files.push_back({{"path", file.path}, {"sha256", file.sha256}});
    }
    j["context"] = std::move(files);
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
  FieldReader r(value, origin, "");
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
      FieldReader s(v, origin, "sources." + name);
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
  if (const json* args = py.array("sync_args"); args != nullptr) {
    for (const auto& a : *args) {
      if (!a.is_string()) {
        py.fail("python.sync_args", "must be an array of strings");
        break;
      }
      lock.python.sync_args.push_back(a.get<std::string>());
    }
  }
  FieldReader ul = py.sub("uv_lock");
  lock.python.uv_lock.path = ul.str("path");
  lock.python.uv_lock.sha256 = ul.str("sha256");
  lock.python.uv_lock.version = ul.integer("version");
  lock.python.uv_lock.revision = ul.integer("revision");
  lock.python.uv_lock.requires_python = ul.str("requires_python");
  if (const json* pkgs = ul.array("packages"); pkgs != nullptr) {
    std::size_t i = 0;
    for (const auto& p : *pkgs) {
      FieldReader pr(p, origin, "python.uv_lock.packages[" + std::to_string(i++) + "]");
      UvPackage pkg;
      pkg.name = pr.str("name");
      pkg.version = pr.str("version");
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

  lock.build_args = read_string_map(r, "build_args");

  FieldReader ex = r.sub("expect");
  lock.expect.cuda = ex.str("cuda");
  lock.expect.nccl = ex.str("nccl");
  lock.expect.pytorch = ex.str("pytorch");
  lock.expect.python = ex.str("python");
  FieldReader gpus = ex.sub("gpus");
  lock.expect.gpus.count = gpus.integer("count");
  lock.expect.gpus.model = gpus.str("model");
  ex.merge(gpus);
  if (const json* bw = ex.object("nccl_busbw_gbps", false); bw != nullptr) {
    for (const auto& [model, v] : bw->items()) {
      if (!v.is_number()) {
        ex.fail("expect.nccl_busbw_gbps." + model, "must be a number");
        continue;
      }
      lock.expect.nccl_busbw_gbps[model] = v.get<double>();
    }
  }
  if (const json* host = ex.object("host", false); host != nullptr && !ex.error()) {
    json facts = *host;
    if (facts.contains("health")) {
      auto health = read_health_expect(facts["health"]);
      if (!health) {
        return with_prefix(std::move(health).error(), origin + ": ");
      }
      lock.expect.health = std::move(*health);
      facts.erase("health");
    }
    auto read = read_host_expect(facts);
    if (!read) {
      return with_prefix(std::move(read).error(), origin + ": ");
    }
    lock.expect.host = std::move(*read);
  }
  if (const json* resume = ex.object("resume", false); resume != nullptr && !ex.error()) {
    auto read = read_resume_expect(*resume);
    if (!read) {
      return with_prefix(std::move(read).error(), origin + ": ");
    }
    lock.expect.resume = *read;
  }
  if (const json* links = ex.object("links", false); links != nullptr && !ex.error()) {
    auto read = read_links_expect(*links);
    if (!read) {
      return with_prefix(std::move(read).error(), origin + ": ");
    }
    lock.expect.links = std::move(*read);
  }
  r.merge(ex);

  FieldReader en = r.sub("enroot");
  lock.enroot.squash_options = en.str("squash_options");
  lock.enroot.source_date_epoch = en.integer("source_date_epoch");
  const json* enroot = value.is_object() && value.contains("enroot") ? &value["enroot"] : nullptr;
  if (enroot != nullptr && enroot->is_object() && enroot->contains("locale")) {
    const std::string locale = en.str("locale");
    if (const auto parsed = parse_enroot_locale(locale)) {
      lock.enroot.locale = *parsed;
    } else if ((*enroot)["locale"].is_string()) {
      en.fail(en.join("locale"), "'" + locale + "' is not one of C.UTF-8, C");
    }
  }
  r.merge(en);

  if (const json* context = r.any("context"); context != nullptr && !context->is_null()) {
    lock.context = read_context(*context, r);
  }
  if (const json* recipe = r.any("recipe");
      recipe != nullptr && !recipe->is_null() && !recipe->is_string()) {
    lock.recipe = read_recipe(*recipe, r);
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
