#include "sbom/cyclonedx.hpp"

#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <tuple>

namespace envlock::sbom {

using nlohmann::json;

namespace {

// Text as the document holds it: every byte that is not part of well-formed UTF-8 (a METADATA
// field or a dpkg stanza in another encoding) written as "\xNN", so the document is valid JSON
// and the same image gives the same bytes.
std::string cdx_text(const std::string& text) {
  return util::escape_invalid_utf8(text);
}

json cdx_properties(const std::vector<Property>& properties) {
  json out = json::array();
  for (const auto& property : properties) {
    out.push_back({{"name", cdx_text(property.name)}, {"value", cdx_text(property.value)}});
  }
  return out;
}

bool cdx_component_less(const Component& a, const Component& b) {
  return std::tie(a.type, a.name, a.version, a.bom_ref) <
         std::tie(b.type, b.name, b.version, b.bom_ref);
}

json cdx_component(const Component& component) {
  json out = {{"type", component.type},
              {"bom-ref", cdx_text(component.bom_ref)},
              {"name", cdx_text(component.name)}};
  if (!component.version.empty()) {
    out["version"] = cdx_text(component.version);
  }
  if (!component.purl.empty()) {
    out["purl"] = cdx_text(component.purl);
  }
  if (!component.description.empty()) {
    out["description"] = cdx_text(component.description);
  }
  if (!component.sha256.empty()) {
    out["hashes"] = json::array({{{"alg", "SHA-256"}, {"content", component.sha256}}});
  }
  if (!component.references.empty()) {
    json references = json::array();
    for (const auto& reference : component.references) {
      references.push_back({{"type", reference.type}, {"url", cdx_text(reference.url)}});
    }
    out["externalReferences"] = references;
  }
  if (!component.properties.empty()) {
    out["properties"] = cdx_properties(component.properties);
  }
  if (!component.ancestors.empty()) {
    std::vector<Component> sorted = component.ancestors;
    std::sort(sorted.begin(), sorted.end(), cdx_component_less);
    json ancestors = json::array();
    for (const auto& ancestor : sorted) {
      ancestors.push_back(cdx_component(ancestor));
    }
    out["pedigree"] = {{"ancestors", ancestors}};
  }
  return out;
}

} // namespace

std::string name_based_urn_uuid(const std::string& text) {
  std::string hex = util::sha256_hex(text).substr(0, 32);
  const auto nibble = [](unsigned value) { return "0123456789abcdef"[value & 0xfU]; };
  hex[12] = '5';
  const auto variant = static_cast<unsigned>(std::stoi(hex.substr(16, 1), nullptr, 16));
  hex[16] = nibble(0x8U | (variant & 0x3U));
  return "urn:uuid:" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20, 12);
}

json to_cyclonedx(const Bom& bom) {
  std::vector<Component> components = bom.components;
  std::sort(components.begin(), components.end(), cdx_component_less);
  json list = json::array();
  for (const auto& component : components) {
    list.push_back(cdx_component(component));
  }
  json metadata = {{"tools",
                    {{"components", json::array({{{"type", "application"},
                                                  {"name", "envlock"},
                                                  {"version", bom.envlock_version}}})}}},
                   {"component", cdx_component(bom.subject)}};
  if (!bom.timestamp.empty()) {
    metadata["timestamp"] = bom.timestamp;
  }
  if (!bom.properties.empty()) {
    metadata["properties"] = cdx_properties(bom.properties);
  }
  json doc = {{"bomFormat", "CycloneDX"},
              {"specVersion", k_cyclonedx_spec_version},
              {"version", 1},
              {"metadata", metadata},
              {"components", list}};
  doc["serialNumber"] = name_based_urn_uuid(util::canonical_json(doc));
  return doc;
}

} // namespace envlock::sbom
