#include "verify/resume/tolerance.hpp"

namespace envlock::verify {

ResumeTolerance resume_tolerance(const lock::ResumeExpect& expect) {
  ResumeTolerance t;
  t.steps = expect.steps.value_or(t.steps);
  t.checkpoint_step = expect.checkpoint_step.value_or(t.steps / 2);
  const auto value = [](const std::optional<lock::DeclaredNumber>& n) {
    return n ? n->value : 0.0;
  };
  t.loss_abs = value(expect.loss_abs);
  t.loss_rel = value(expect.loss_rel);
  t.lr_abs = value(expect.lr_abs);
  t.param_abs = value(expect.param_abs);
  t.param_rel = value(expect.param_rel);
  return t;
}

Result<ResumeTolerance> read_resume_tolerance(const nlohmann::json& resume) {
  ENVLOCK_TRY_ASSIGN(const lock::ResumeExpect expect, lock::read_resume_expect(resume));
  return resume_tolerance(expect);
}

} // namespace envlock::verify
