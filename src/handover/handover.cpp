#include "handover/handover.hpp"

#include "handover/items.hpp"

namespace envlock::handover {

namespace detail {

HandoverItem missing(const std::string& label) {
  return {label, std::nullopt, ""};
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
  const auto& facts = records.node->value.facts;
  const auto it = facts.find(key);
  if (it == facts.end() || !it->second.value) {
    return missing(label);
  }
  return {label, *it->second.value, records.node->record.name + ": facts[" + key + "]"};
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
