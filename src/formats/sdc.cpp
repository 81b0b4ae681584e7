#include "formats/sdc.hpp"

#include <charconv>

namespace envlock::formats {

using nlohmann::json;

json to_json(const SdcDigests& d) {
  json digests = json::array();
  for (const auto& [step, sha] : d.digests) {
    digests.push_back({{"step", step}, {"sha256", sha}});
  }
  json last = d.digests.empty()
                  ? json(nullptr)
                  : json{{"step", d.digests.back().first}, {"sha256", d.digests.back().second}};
  json out = {{"chain", d.chain},
              {"uuid", d.uuid},
              {"name", d.name},
              {"serial", d.serial},
              {"driver_version", d.driver_version},
              {"cuda_driver_api", d.cuda_driver_api},
              {"cublaslt_version", d.cublaslt_version},
              {"algo",
               {{"id", d.algo.id},
                {"tile", d.algo.tile},
                {"splitk", d.algo.splitk},
                {"reduction_scheme", d.algo.reduction_scheme},
                {"swizzle", d.algo.swizzle},
                {"custom", d.algo.custom},
                {"stages", d.algo.stages}}},
              {"steps", d.steps},
              {"every", d.every},
              {"digests", digests},
              {"last", last},
              {"repeated", d.repeated},
              {"repeat_sha256", d.repeat_sha256}};
  if (d.injected_bitflip_step) {
    out["injected_bitflip_step"] = *d.injected_bitflip_step;
  }
  return out;
}

int sdc_gpu_index(const std::string& id) {
  if (!id.starts_with("gpu.") || !id.ends_with(".sdc")) {
    return -1;
  }
  const std::string_view number(id.data() + 4, id.size() - 8);
  int value = -1;
  const auto* end = number.data() + number.size();
  if (number.empty() || std::from_chars(number.data(), end, value).ptr != end) {
    return -1;
  }
  return value;
}

Result<std::optional<SdcDigests>> read_sdc_digests(const CheckResult& check,
                                                   const std::string& origin) {
  if (sdc_gpu_index(check.id) < 0 || check.outcome != Outcome::pass) {
    return std::optional<SdcDigests>();
  }
  util::FieldReader r(check.details, origin, check.id + ".details", check.id + "'s details");
  SdcDigests d;
  d.chain = r.str("chain");
  d.uuid = r.str("uuid");
  d.name = r.str("name");
  d.serial = r.str("serial");
  d.driver_version = r.str("driver_version");
  d.cuda_driver_api = r.str("cuda_driver_api");
  d.cublaslt_version = r.str("cublaslt_version");
  util::FieldReader algo = r.sub("algo");
  d.algo.id = algo.integer("id");
  d.algo.tile = algo.uinteger("tile");
  d.algo.splitk = algo.integer("splitk");
  d.algo.reduction_scheme = algo.uinteger("reduction_scheme");
  d.algo.swizzle = algo.uinteger("swizzle");
  d.algo.custom = algo.uinteger("custom");
  d.algo.stages = algo.uinteger("stages");
  r.merge(algo);
  d.steps = r.uinteger("steps");
  d.every = r.uinteger("every");
  if (const json* digests = r.array("digests"); digests != nullptr) {
    for (std::size_t i = 0; i < digests->size(); ++i) {
      util::FieldReader e = r.element("digests", i, (*digests)[i]);
      const std::uint64_t step = e.uinteger("step");
      std::string sha = e.str("sha256");
      check_sha256(e, "sha256", sha);
      if (!d.digests.empty() && step <= d.digests.back().first) {
        e.fail(e.join("step"), "steps must ascend");
      }
      r.merge(e);
      d.digests.emplace_back(step, std::move(sha));
    }
  }
  static_cast<void>(r.any("last")); // the last digest again, for people
  d.repeated = r.boolean("repeated");
  d.repeat_sha256 = r.str("repeat_sha256");
  if (r.any("injected_bitflip_step") != nullptr) {
    d.injected_bitflip_step = r.uinteger("injected_bitflip_step");
  }
  // The check's other details (the rate beside the GEMM check's) are not part of the record.
  static_cast<void>(r.any("share_of_gemm_check"));
  ENVLOCK_TRY(r.status());
  return std::optional<SdcDigests>(std::move(d));
}

std::string sdc_group_key(const SdcDigests& d) {
  return d.chain + " | " + d.name + " | driver " +
         (d.driver_version.empty() ? "?" : d.driver_version) + " | CUDA " + d.cuda_driver_api +
         " | cuBLASLt " + d.cublaslt_version;
}

} // namespace envlock::formats
