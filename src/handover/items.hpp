// Internal to the handover: making items from records (handover*.cpp).
#pragma once

#include "handover/handover.hpp"

#include <string>
#include <vector>

namespace envlock::handover::detail {

// A missing item.
HandoverItem missing(const std::string& label);

// The first of `paths` in `record` that holds text, or a missing item.
HandoverItem pick(const std::optional<Record>& record, const std::string& label,
                  const std::vector<std::string>& paths);

// A fact of the node facts record (facts.KEY.value), or a missing item.
HandoverItem fact(const Records& records, const std::string& label, const std::string& key);

// A value computed from one record's field(s), with that source.
HandoverItem derived(const Record& record, const std::string& label, const std::string& value,
                     const std::string& field);

// The rows, one function each (handover_machine.cpp, handover_build.cpp, handover_run.cpp).
HandoverRow hardware_row(const Records& records);
HandoverRow services_row(const Records& records);
HandoverRow code_row(const Records& records);
HandoverRow image_row(const Records& records);
HandoverRow training_row(const Records& records);
HandoverRow procedure_row(const Records& records);
HandoverRow rollback_row(const Records& records);

} // namespace envlock::handover::detail
