// The handover record: the seed's seven rows (hardware to checkpoint compatibility), each item
// filled from the records given, with the record and field it came from. A value that no record
// supplies is missing, never guessed.
#pragma once

#include "handover/inputs.hpp"

#include <optional>
#include <string>
#include <vector>

namespace envlock::handover {

struct HandoverItem {
  std::string label;                // "Base image digest"
  std::optional<std::string> value; // nothing: missing
  std::string source;               // "envlock.lock.json: base_image.digest"; "" when missing
};

struct HandoverRow {
  std::string id;    // "hardware", "services", "code", "image", "training", "procedure", "rollback"
  std::string title; // "Hardware, firmware, operating-system, kernel and driver versions"
  std::string purpose; // "Identify the machine and its underlying software conditions"
  std::vector<HandoverItem> items;
};

struct Handover {
  std::vector<HandoverRow> rows; // always the seven rows, in the seed's order
};

// Fills the seven rows from `records`. Pure; never fails.
Handover build_handover(const Records& records);

} // namespace envlock::handover
