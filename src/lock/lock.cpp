#include "lock/lock.hpp"

#include "util/json.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <set>

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

// Reads fields of one JSON object and remembers the first error, naming the field's path.
class Reader {
public:
  Reader(const json& obj, std::string origin, std::string path)
      : m_obj(obj), m_origin(std::move(origin)), m_path(std::move(path)) {
    if (!m_obj.is_object()) {
      fail(m_path.empty() ? "the lock" : m_path, "must be an object");
    }
  }

  std::string str(const char* key, bool required = true) {
    const json* v = find(key, required);
    if (v == nullptr) {
      return {};
    }
    if (!v->is_string()) {
      fail(join(key), "must be a string");
      return {};
    }
    return v->get<std::string>();
  }

  std::int64_t integer(const char* key, bool required = true) {
    const json* v = find(key, required);
    if (v == nullptr) {
      return 0;
    }
    if (!v->is_number_integer()) {
      fail(join(key), "must be an integer");
      return 0;
    }
    return v->get<std::int64_t>();
  }

  const json* object(const char* key, bool required = true) {
    const json* v = find(key, required);
    if (v != nullptr && !v->is_object()) {
      fail(join(key), "must be an object");
      return nullptr;
    }
    return v;
  }

  const json* array(const char* key, bool required = true) {
    const json* v = find(key, required);
    if (v != nullptr && !v->is_array()) {
      fail(join(key), "must be an array");
      return nullptr;
    }
    return v;
  }

  Reader sub(const char* key, bool required = true) {
    const json* v = object(key, required);
    static const json k_empty = json::object();
    Reader r(v != nullptr ? *v : k_empty, m_origin, join(key));
    r.m_error = m_error;
    return r;
  }

  // Adopt the first error of a sub-reader.
  void merge(const Reader& other) {
    if (!m_error && other.m_error) {
      m_error = other.m_error;
    }
  }

  void fail(const std::string& path, const std::string& what) {
    if (!m_error) {
      m_error = input_error(m_origin + ": " + path + ": " + what);
    }
  }

  [[nodiscard]] const std::optional<Error>& error() const { return m_error; }
  [[nodiscard]] std::string join(const std::string& key) const {
    return m_path.empty() ? key : m_path + "." + key;
  }

private:
  const json* find(const char* key, bool required) {
    if (!m_obj.is_object()) {
      return nullptr;
    }
    const auto it = m_obj.find(key);
    if (it == m_obj.end()) {
      if (required) {
        fail(join(key), "missing");
      }
      return nullptr;
    }
    return &*it;
  }

  const json& m_obj;
  std::string m_origin;
  std::string m_path;
  std::optional<Error> m_error;
};

ImagePin read_image_pin(Reader& r) {
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

std::map<std::string, std::string> read_string_map(Reader& parent, const char* key) {
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

const std::set<std::string>& known_top_level() {
  static const std::set<std::string> keys = {"schema",     "manifest", "image",
                                             "base_image", "sources",  "python",
                                             "build_args", "expect",   "enroot"};
  return keys;
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
  json j = lock.extra.is_object() ? lock.extra : json::object();
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
                 {"host", e.host},
                 {"resume", e.resume}};
  j["enroot"] = {{"squash_options", lock.enroot.squash_options},
                 {"source_date_epoch", lock.enroot.source_date_epoch}};
  // Written only when not the default, so that locks (and their lock_sha256) from before the
  // field existed keep their bytes.
  if (lock.enroot.locale != EnrootLocale::utf8) {
    j["enroot"]["locale"] = to_string(lock.enroot.locale);
  }
  return j;
}

Result<Lock> from_json(const json& value, const std::string& origin) {
  Reader r(value, origin, "");
  if (r.error()) {
    return *r.error();
  }
  Lock lock;
  const std::string schema = r.str("schema");
  if (!r.error() && schema != k_schema) {
    return input_error(origin + ": schema: '" + schema + "' is not supported (expected '" +
                       k_schema + "')");
  }
  Reader m = r.sub("manifest");
  lock.manifest_path = m.str("path");
  lock.manifest_sha256 = m.str("sha256");
  r.merge(m);

  Reader img = r.sub("image");
  lock.image.name = img.str("name");
  lock.image.tag = img.str("tag");
  lock.image.repository = img.str("repository");
  r.merge(img);

  Reader base = r.sub("base_image");
  lock.base_image = read_image_pin(base);
  r.merge(base);

  if (const json* sources = r.object("sources"); sources != nullptr) {
    for (const auto& [name, v] : sources->items()) {
      Reader s(v, origin, "sources." + name);
      lock.sources[name] = GitPin{s.str("git"), s.str("ref"), s.str("commit")};
      r.merge(s);
    }
  }

  Reader py = r.sub("python");
  lock.python.project = py.str("project");
  Reader uv = py.sub("uv");
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
  Reader ul = py.sub("uv_lock");
  lock.python.uv_lock.path = ul.str("path");
  lock.python.uv_lock.sha256 = ul.str("sha256");
  lock.python.uv_lock.version = ul.integer("version");
  lock.python.uv_lock.revision = ul.integer("revision");
  lock.python.uv_lock.requires_python = ul.str("requires_python");
  if (const json* pkgs = ul.array("packages"); pkgs != nullptr) {
    std::size_t i = 0;
    for (const auto& p : *pkgs) {
      Reader pr(p, origin, "python.uv_lock.packages[" + std::to_string(i++) + "]");
      UvPackage pkg;
      pkg.name = pr.str("name");
      pkg.version = pr.str("version");
      Reader src = pr.sub("source");
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

  Reader ex = r.sub("expect");
  lock.expect.cuda = ex.str("cuda");
  lock.expect.nccl = ex.str("nccl");
  lock.expect.pytorch = ex.str("pytorch");
  lock.expect.python = ex.str("python");
  Reader gpus = ex.sub("gpus");
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
  if (const json* host = ex.object("host", false); host != nullptr) {
    lock.expect.host = *host;
  }
  if (const json* resume = ex.object("resume", false); resume != nullptr) {
    lock.expect.resume = *resume;
  }
  r.merge(ex);

  Reader en = r.sub("enroot");
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

  if (r.error()) {
    return *r.error();
  }
  for (const auto& [k, v] : value.items()) {
    if (known_top_level().count(k) == 0) {
      lock.extra[k] = v;
    }
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

} // namespace envlock::lock
