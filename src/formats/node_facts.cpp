#include "formats/node_facts.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

namespace {

json nullable(const std::optional<std::string>& text) {
  return text ? json(*text) : json();
}

json fact_json(const Fact& fact) {
  json out = {{"value", nullable(fact.value)}, {"source", fact.source}};
  if (!fact.value) {
    out["missing"] = fact.missing;
  }
  return out;
}

json gpu_json(const NodeGpu& gpu) {
  json out = {{"index", gpu.index}, {"health", gpu.health}};
  if (gpu.opened) {
    out["name"] = nullable(gpu.name);
    out["uuid"] = nullable(gpu.uuid);
    out["vbios"] = nullable(gpu.vbios);
  }
  return out;
}

Fact read_fact(FieldReader& f) {
  Fact fact;
  fact.value = f.nullable_str("value");
  fact.source = f.str("source");
  if (!fact.value) {
    fact.missing = f.str("missing");
  }
  return fact;
}

NodeGpu read_gpu(FieldReader& g) {
  NodeGpu gpu;
  gpu.index = g.integer("index");
  gpu.health = g.str("health");
  gpu.opened = g.any("name") != nullptr || g.any("uuid") != nullptr || g.any("vbios") != nullptr;
  if (gpu.opened) {
    gpu.name = g.nullable_str("name");
    gpu.uuid = g.nullable_str("uuid");
    gpu.vbios = g.nullable_str("vbios");
  }
  return gpu;
}

} // namespace

json to_json(const NodeFacts& facts) {
  json all = json::object();
  for (const auto& [key, fact] : facts.facts) {
    all[key] = fact_json(fact);
  }
  json gpus = json::array();
  for (const auto& gpu : facts.gpus) {
    gpus.push_back(gpu_json(gpu));
  }
  json out = {{"schema", k_node_facts_schema}, {"facts", all}, {"gpus", gpus}};
  if (facts.health) {
    out["health"] = *facts.health;
  }
  if (facts.checks) {
    json checks = json::array();
    for (const auto& check : *facts.checks) {
      checks.push_back(to_json(check));
    }
    const Summary summary = summarize(*facts.checks);
    out["checks"] = std::move(checks);
    out["outcome"] = summary.failed > 0 ? "fail" : "pass";
    out["summary"] = {
        {"passed", summary.passed}, {"failed", summary.failed}, {"skipped", summary.skipped}};
  }
  return out;
}

template <> Result<NodeFacts> from_json<NodeFacts>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the host facts");
  read_schema(r, k_node_facts_schema);
  NodeFacts out;
  if (const json* facts = r.object("facts"); facts != nullptr) {
    for (const auto& [key, item] : facts->items()) {
      FieldReader f = r.member("facts", key, item);
      out.facts[key] = read_fact(f);
      r.merge(f);
    }
  }
  if (const json* gpus = r.array("gpus"); gpus != nullptr) {
    for (std::size_t i = 0; i < gpus->size(); ++i) {
      FieldReader g = r.element("gpus", i, (*gpus)[i]);
      out.gpus.push_back(read_gpu(g));
      r.merge(g);
    }
  }
  if (const json* health = r.object("health", Presence::optional); health != nullptr) {
    // Its three parts are there and of their kind; what is inside each is the rules' to judge.
    FieldReader h = r.sub("health");
    (void)h.object("nvml");
    (void)h.array("gpus");
    (void)h.object("host");
    r.merge(h);
    out.health = *health;
  }
  if (const json* checks = r.array("checks", Presence::optional); checks != nullptr) {
    out.checks.emplace();
    for (std::size_t i = 0; i < checks->size(); ++i) {
      FieldReader c = r.element("checks", i, (*checks)[i]);
      out.checks->push_back(read_check(c));
      r.merge(c);
    }
    read_outcome_and_summary(r, *out.checks);
  }
  ENVLOCK_TRY(r.status());
  return out;
}

Result<NodeFacts> read_node_facts(const std::filesystem::path& path) {
  return read_record<NodeFacts>(path);
}

Status write_node_facts(const std::filesystem::path& path, const NodeFacts& facts) {
  return util::write_json_file(path, to_json(facts));
}

} // namespace envlock::formats
