#include "handover/handover.hpp"

#include "handover/items.hpp"
#include "handover/json_pick.hpp"

namespace envlock::handover {

namespace detail {

HandoverItem missing(const std::string& label) {
  return {label, std::nullopt, ""};
}

HandoverItem pick(const std::optional<Record>& record, const std::string& label,
                  const std::vector<std::string>& paths) {
  if (!record) {
    return missing(label);
  }
  const auto found = pick_text(record->json, paths);
  if (!found) {
    return missing(label);
  }
  return {label, found->first, record->name + ": " + found->second};
}

HandoverItem from_lock(const std::optional<LockRecord>& record, const std::string& label,
                       const std::string& field,
                       const std::function<std::string(const lock::Lock&)>& value) {
  if (!record) {
    return missing(label);
  }
  std::string text = value(record->lock);
  if (text.empty()) {
    return missing(label);
  }
  return {label, std::move(text), record->record.name + ": " + field};
}

HandoverItem fact(const Records& records, const std::string& label, const std::string& key) {
  if (!records.node) {
    return missing(label);
  }
  const nlohmann::json& facts = records.node->json.value("facts", nlohmann::json::object());
  const auto it = facts.find(key);
  if (it == facts.end() || !it->is_object() || !it->value("value", nlohmann::json()).is_string()) {
    return missing(label);
  }
  return {label, (*it)["value"].get<std::string>(), records.node->name + ": facts[" + key + "]"};
}

HandoverItem derived(const Record& record, const std::string& label, const std::string& value,
                     const std::string& field) {
  return {label, value, record.name + ": " + field};
}

} // namespace detail

Handover build_handover(const Records& records) {
  using namespace detail; // NOLINT(google-build-using-namespace)
  return Handover{{hardware_row(records), services_row(records), code_row(records),
                   image_row(records), training_row(records), procedure_row(records),
                   rollback_row(records)}};
}

} // namespace envlock::handover
