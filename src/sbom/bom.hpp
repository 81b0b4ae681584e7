// The software bill of materials of one image, as envlock finds it: the image (and the base image
// it was built on), then one component per thing installed in it. Pure data; cyclonedx.hpp
// writes it. docs/formats/sbom.md describes what each part holds.
#pragma once

#include <string>
#include <vector>

namespace envlock::sbom {

// A name/value pair CycloneDX carries in `properties`; envlock's names start with "envlock:".
struct Property {
  std::string name;
  std::string value;
  bool operator==(const Property&) const = default;
};

// A link from a component to where it came from (CycloneDX externalReferences).
struct ExternalReference {
  std::string type; // "vcs", "distribution"
  std::string url;
  bool operator==(const ExternalReference&) const = default;
};

struct Component {
  std::string type;    // CycloneDX component type: library, container, operating-system
  std::string bom_ref; // unique in the document
  std::string name;
  std::string version;
  std::string purl;        // empty: none
  std::string description; // empty: none
  std::string sha256;      // 64 hex (the artifact installed), empty: none
  std::vector<ExternalReference> references;
  std::vector<Property> properties;
  std::vector<Component> ancestors; // pedigree.ancestors: what this was built from
  bool operator==(const Component&) const = default;
};

struct Bom {
  Component subject;                 // metadata.component: the image
  std::vector<Component> components; // what is installed, in any order (the writer sorts)
  std::vector<Property> properties;  // metadata.properties: what was found missing, and how
  std::string timestamp;             // RFC 3339 UTC; empty: none written
  std::string envlock_version;
};

} // namespace envlock::sbom
