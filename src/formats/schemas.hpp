// The schema ids of the JSON envlock writes that no other envlock command reads: the handover
// record (docs/manual/handover.md), `envlock diff --format json`, `envlock lint --format json`,
// `envlock lock --check --format json`, and the importer's own verified stamps and audit line
// (docs/formats/image-record.md, importer-audit.md), which only the importer reads back. They
// live here with the records' ids so that no folder but formats/ and lock/ spells one; a record
// another command comes to read gets a header of its own (record.hpp).
#pragma once

namespace envlock::formats {

inline constexpr const char* k_handover_schema = "envlock.handover/v1";
inline constexpr const char* k_diff_schema = "envlock.diff/v1";
inline constexpr const char* k_lint_schema = "envlock.lint/v1";
inline constexpr const char* k_lock_check_schema = "envlock.lock-check/v1";
inline constexpr const char* k_verified_stamp_schema = "envlock.verified-stamp/v1";
inline constexpr const char* k_importer_audit_schema = "envlock.importer-audit/v2";
// The audit lines written before job_claimed, sqsh.checked and waits; still read back.
inline constexpr const char* k_importer_audit_schema_v1 = "envlock.importer-audit/v1";

} // namespace envlock::formats
