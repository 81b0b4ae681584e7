#include "verify/resume/tolerance.hpp"

#include "util/strings.hpp"

namespace envlock::verify {

namespace {

Result<double> read_number(const nlohmann::json& value, const std::string& key) {
  if (!value.is_number() || value.get<double>() < 0) {
    return input_error("expect.resume." + key + ": expected a number >= 0");
  }
  return value.get<double>();
}

Result<std::int64_t> read_step(const nlohmann::json& value, const std::string& key) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1) {
    return input_error("expect.resume." + key + ": expected an integer >= 1");
  }
  return value.get<std::int64_t>();
}

} // namespace

const std::vector<std::string>& resume_tolerance_keys() {
  static const std::vector<std::string> keys = {"steps",  "checkpoint_step", "loss_abs", "loss_rel",
                                                "lr_abs", "param_abs",       "param_rel"};
  return keys;
}

Result<ResumeTolerance> read_resume_tolerance(const nlohmann::json& resume) {
  ResumeTolerance tolerance;
  if (resume.is_null()) {
    return tolerance;
  }
  if (!resume.is_object()) {
    return input_error("expect.resume: expected a mapping");
  }
  for (const auto& [key, value] : resume.items()) {
    const auto& keys = resume_tolerance_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string message = "expect.resume: unknown key '" + key + "'";
      if (auto close = util::closest_match(key, keys)) {
        message += "; did you mean '" + *close + "'?";
      }
      return input_error(message);
    }
    if (key == "steps") {
      ENVLOCK_TRY_ASSIGN(tolerance.steps, read_step(value, key));
    } else if (key == "checkpoint_step") {
      ENVLOCK_TRY_ASSIGN(tolerance.checkpoint_step, read_step(value, key));
    } else {
      ENVLOCK_TRY_ASSIGN(const double number, read_number(value, key));
      (key == "loss_abs"    ? tolerance.loss_abs
       : key == "loss_rel"  ? tolerance.loss_rel
       : key == "lr_abs"    ? tolerance.lr_abs
       : key == "param_abs" ? tolerance.param_abs
                            : tolerance.param_rel) = number;
    }
  }
  if (!resume.contains("checkpoint_step")) {
    tolerance.checkpoint_step = tolerance.steps / 2;
  }
  if (tolerance.checkpoint_step >= tolerance.steps || tolerance.checkpoint_step < 1) {
    return input_error("expect.resume.checkpoint_step: must be between 1 and steps - 1 (" +
                       std::to_string(tolerance.steps - 1) + ")");
  }
  return tolerance;
}

} // namespace envlock::verify
