// The lock's "expect" section: what verification checks later, read with one FieldReader like
// every other section (unknown keys refused, the first error with its JSON path).
#include "lock/lock.hpp"
#include "util/field_reader.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::lock {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

namespace {

HostExpect read_host_entries(FieldReader& h, const json& value) {
  HostExpect out;
  const auto entry_of = [](const json& item) {
    return item.is_string() ? HostExpectation::Entry{item.get<std::string>(), false}
                            : HostExpectation::Entry{item.dump(), true};
  };
  for (const auto& [key, item] : value.items()) {
    (void)h.any(key.c_str());
    HostExpectation e;
    if (item.is_string() || item.is_number()) {
      e.entries = {entry_of(item)};
    } else if (item.is_array() && !item.empty()) {
      e.list = true;
      for (const auto& entry : item) {
        if (!entry.is_string() && !entry.is_number()) {
          h.fail(h.join(key), "each entry must be a string or a number");
          return out;
        }
        e.entries.push_back(entry_of(entry));
      }
    } else {
      h.fail(h.join(key), "must be a string, a number or a non-empty list of them");
      return out;
    }
    out[key] = std::move(e);
  }
  return out;
}

// Records `error` (a section reader's "PATH: WHAT") as `r`'s first error.
void fail_with(FieldReader& r, const Error& error) {
  const std::string& message = error.message;
  const std::size_t colon = message.find(": ");
  r.fail(message.substr(0, colon),
         colon == std::string::npos ? std::string() : message.substr(colon + 2));
}

ResumeExpect read_resume_entries(FieldReader& r) {
  ResumeExpect out;
  const auto step = [&](const char* key, std::optional<std::int64_t>& slot) {
    if (const json* v = r.any(key); v != nullptr) {
      if (!v->is_number_integer() || v->get<std::int64_t>() < 1) {
        r.fail(r.join(key), "expected an integer >= 1");
        return;
      }
      slot = v->get<std::int64_t>();
    }
  };
  const auto tolerance = [&](const char* key, std::optional<DeclaredNumber>& slot) {
    if (const json* v = r.any(key); v != nullptr) {
      if (!v->is_number() || v->get<double>() < 0) {
        r.fail(r.join(key), "expected a number >= 0");
        return;
      }
      slot = DeclaredNumber{v->get<double>(), v->is_number_integer()};
    }
  };
  step("steps", out.steps);
  step("checkpoint_step", out.checkpoint_step);
  tolerance("loss_abs", out.loss_abs);
  tolerance("loss_rel", out.loss_rel);
  tolerance("lr_abs", out.lr_abs);
  tolerance("param_abs", out.param_abs);
  tolerance("param_rel", out.param_rel);
  r.finish();
  const std::int64_t steps = out.steps.value_or(100);
  const std::int64_t checkpoint = out.checkpoint_step.value_or(steps / 2);
  if (checkpoint >= steps || checkpoint < 1) {
    r.fail(r.join("checkpoint_step"),
           "must be between 1 and steps - 1 (" + std::to_string(steps - 1) + ")");
  }
  return out;
}

} // namespace

Result<HostExpect> read_host_expect(const json& value) {
  if (value.is_null()) {
    return HostExpect{};
  }
  if (!value.is_object()) {
    return input_error("expect.host: expected a mapping");
  }
  FieldReader h(value, "", "expect.host");
  HostExpect out = read_host_entries(h, value);
  ENVLOCK_TRY(h.status());
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
  if (value.is_null()) {
    return ResumeExpect{};
  }
  if (!value.is_object()) {
    return input_error("expect.resume: expected a mapping");
  }
  FieldReader r(value, "", "expect.resume");
  ResumeExpect out = read_resume_entries(r);
  ENVLOCK_TRY(r.status());
  return out;
}

json expect_to_json(const Expect& e) {
  json out = {{"cuda", e.cuda},
              {"nccl", e.nccl},
              {"pytorch", e.pytorch},
              {"python", e.python},
              {"gpus", {{"count", e.gpus.count}, {"model", e.gpus.model}}},
              {"nccl_busbw_gbps", e.nccl_busbw_gbps},
              {"host", host_expect_to_json(e.host)},
              {"resume", resume_expect_to_json(e.resume)}};
  // expect.host.health lives inside expect.host, when declared.
  if (e.health) {
    out["host"]["health"] = health_expect_to_json(*e.health);
  }
  // Written only when declared, so that locks (and their lock_sha256) from before the field
  // existed keep their bytes.
  if (!e.links.empty()) {
    out["links"] = links_expect_to_json(e.links);
  }
  return out;
}

Expect read_expect(FieldReader& top) {
  Expect expect;
  FieldReader ex = top.sub("expect");
  expect.cuda = ex.str("cuda");
  expect.nccl = ex.str("nccl");
  expect.pytorch = ex.str("pytorch");
  expect.python = ex.str("python");
  FieldReader gpus = ex.sub("gpus");
  expect.gpus.count = gpus.integer("count");
  expect.gpus.model = gpus.str("model");
  ex.merge(gpus);
  if (const json* bw = ex.object("nccl_busbw_gbps", Presence::optional); bw != nullptr) {
    for (const auto& [model, v] : bw->items()) {
      if (!v.is_number()) {
        ex.fail(ex.join("nccl_busbw_gbps") + "." + model, "must be a number");
        continue;
      }
      expect.nccl_busbw_gbps[model] = v.get<double>();
    }
  }
  if (const json* host = ex.object("host", Presence::optional); host != nullptr) {
    FieldReader h = ex.sub("host", Presence::optional);
    json facts = *host;
    if (const json* health = h.any("health"); health != nullptr) {
      // health_expect.hpp reads it, naming the field ("expect.host.health.pcie_gen: ...").
      if (auto read = read_health_expect(*health)) {
        expect.health = std::move(*read);
      } else {
        fail_with(h, read.error());
      }
      facts.erase("health");
    }
    expect.host = read_host_entries(h, facts);
    ex.merge(h);
  }
  if (ex.object("resume", Presence::optional) != nullptr) {
    FieldReader r = ex.sub("resume", Presence::optional);
    expect.resume = read_resume_entries(r);
    ex.merge(r);
  }
  if (const json* links = ex.object("links", Presence::optional); links != nullptr) {
    // links_expect.hpp reads it, naming the field ("expect.links.MODEL.peer_gbps: ...").
    if (auto read = read_links_expect(*links)) {
      expect.links = std::move(*read);
    } else {
      fail_with(ex, read.error());
    }
  }
  top.merge(ex);
  return expect;
}

} // namespace envlock::lock
