// Internal to the handover: making items from records (handover*.cpp).
#pragma once

#include "handover/handover.hpp"

#include <functional>
#include <string>
#include <vector>

namespace envlock::handover::detail {

// A missing item.
HandoverItem missing(const std::string& label);

// A typed field of a record (`value` reads it, `field` names it): missing when there is no such
// record or the value is empty.
template <class T, class F>
HandoverItem from_record(const std::optional<Read<T>>& read, const std::string& label,
                         const std::string& field, F value) {
  if (!read) {
    return missing(label);
  }
  std::string text = value(read->value);
  if (text.empty()) {
    return missing(label);
  }
  return {label, std::move(text), read->record.name + ": " + field};
}

// A typed field of a lock record, like from_record.
HandoverItem from_lock(const std::optional<LockRecord>& record, const std::string& label,
                       const std::string& field,
                       const std::function<std::string(const lock::Lock&)>& value);

// A fact of the node facts record (facts[KEY].value), or a missing item.
HandoverItem fact(const Records& records, const std::string& label, const std::string& key);

// A value computed from one record's field(s), with that source.
HandoverItem derived(const Record& record, const std::string& label, const std::string& value,
                     const std::string& field);

// The rows, one function each (machine_items.cpp, build_items.cpp, run_items.cpp).
HandoverRow hardware_row(const Records& records);
HandoverRow services_row(const Records& records);
HandoverRow code_row(const Records& records);
HandoverRow image_row(const Records& records);
HandoverRow training_row(const Records& records);
HandoverRow procedure_row(const Records& records);
HandoverRow rollback_row(const Records& records);

} // namespace envlock::handover::detail
