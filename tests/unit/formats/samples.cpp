#include "samples.hpp"

namespace envlock::test {

std::string repeated(const std::string& unit, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) {
    out += unit;
  }
  return out;
}

formats::BuildResult sample_build_result() {
  formats::BuildResult b;
  b.repository = "registry.example.invalid/ml/megatron-train";
  b.tag = "core_v0.19.0";
  b.digest = "sha256:" + repeated("b1", 32);
  b.pushed = true;
  b.builder_name = "buildah";
  b.builder_version = "1.28.2";
  b.lock_sha256 = repeated("c1", 32);
  b.dockerfile_sha256 = repeated("d1", 32);
  b.context_sha256 = repeated("e1", 32);
  b.build_args = {{"MAX_JOBS", "16"}, {"NVTE_FRAMEWORK", "pytorch"}};
  b.source_date_epoch = 1767225600;
  b.log_path = "build-result.log";
  b.log_sha256 = repeated("f1", 32);
  b.started_at = "2026-11-30T23:01:52Z";
  b.finished_at = "2026-11-30T23:42:11Z";
  return b;
}

formats::SquashfsResult sample_squashfs_result() {
  formats::SquashfsResult r;
  r.image_reference = sample_build_result().reference();
  r.manifest_digest = sample_build_result().digest;
  r.platform = "linux/amd64";
  r.file_name = "megatron-train+core_v0.19.0.sqsh";
  r.sha256 = repeated("e3", 32);
  r.size = 21474836480;
  r.tree_digest = "sha256:" + repeated("a7", 32);
  r.producer = "envlock";
  r.squashfs_tools_version = "4.5.1";
  r.squash_options = "-comp zstd -Xcompression-level 3 -exit-on-error";
  r.mksquashfs_arguments = {"-mkfs-time", "1767225600",    "-all-time",
                            "1767225600", "-all-root",     "-no-progress",
                            "-comp",      "zstd",          "-Xcompression-level",
                            "3",          "-exit-on-error"};
  r.source_date_epoch = 1767225600;
  r.superblock.inode_count = 40213;
  r.superblock.mkfs_time = 1767225600;
  r.superblock.block_size = 131072;
  r.superblock.fragment_count = 120;
  r.superblock.compression = 6;
  r.superblock.block_log = 17;
  r.superblock.flags = 192;
  r.superblock.id_count = 1;
  r.superblock.version_major = 4;
  r.superblock.bytes_used = 21474835456;
  return r;
}

formats::CheckResult sample_check(const std::string& id, const std::string& title,
                                  formats::Outcome outcome, const std::string& expected,
                                  const std::string& found, const std::string& reason) {
  formats::CheckResult c;
  c.id = id;
  c.title = title;
  c.outcome = outcome;
  c.expected = expected;
  c.found = found;
  c.reason = reason;
  c.seconds = 0.5;
  return c;
}

formats::Report sample_report(const std::string& hostname,
                              std::vector<formats::CheckResult> checks) {
  formats::Report r;
  r.tool_version = "0.1.0";
  r.mode = "live";
  r.lock_sha256 = repeated("c1", 32);
  r.image_digest = sample_build_result().digest;
  r.sqsh_sha256 = sample_squashfs_result().sha256;
  r.checks = std::move(checks);
  r.details = {{"chain",
                {{"image_digest_from", "/local/images/megatron-train+core_v0.19.0.sqsh.json"},
                 {"sqsh_sha256_from", "/local/images/megatron-train+core_v0.19.0.sqsh.json"}}}};
  r.run = {"2026-12-01T09:00:00Z", hostname, "/etc/envlock/lock.json", "", 12.5};
  return r;
}

formats::RollbackReport sample_rollback_report() {
  const std::string base = "nvcr.io/nvidia/pytorch@sha256:" + repeated("4a", 32);
  const std::string image =
      "registry.example.invalid/ml/megatron-train@sha256:" + repeated("b0", 32);
  formats::RollbackReport r;
  r.tool_version = "0.1.0";
  r.previous_lock = "previous.lock.json";
  r.previous_lock_sha256 = repeated("d2", 32);
  r.previous_base_image = base;
  r.previous_image = image;
  r.previous_sqsh = "megatron-train+core_v0.18.2.sqsh";
  r.previous_sqsh_sha256 = repeated("e3", 32);
  r.current_lock = "envlock.lock.json";
  r.current_lock_sha256 = repeated("c1", 32);
  using formats::RollbackOutcome;
  r.checks = {
      {"base_image", base, RollbackOutcome::pass,
       "served (application/vnd.oci.image.index.v1+json)", "",
       "previous.lock.json: base_image.digest"},
      {"image", image, RollbackOutcome::pass, "served (application/vnd.oci.image.manifest.v1+json)",
       "", "build-result.json: image.digest"},
      {"sqsh", "megatron-train+core_v0.18.2.sqsh", RollbackOutcome::pass,
       "sha256 " + repeated("e3", 32) + ", 21474836480 bytes", "", "squashfs-result.json: sqsh"}};
  r.checked_at = "2026-11-30T23:30:00Z";
  r.hostname = "login1";
  r.seconds = 0.2;
  return r;
}

formats::NodeFacts sample_node_facts() {
  formats::NodeFacts n;
  const auto found = [&](const std::string& key, const std::string& value,
                         const std::string& source) {
    n.facts[key] = formats::Fact{value, source, ""};
  };
  found("arch", "x86_64", "uname");
  found("bios.date", "03/14/2026", "/sys/class/dmi/id/bios_date");
  found("bios.vendor", "American Megatrends International, LLC.", "/sys/class/dmi/id/bios_vendor");
  found("bios.version", "2.1a", "/sys/class/dmi/id/bios_version");
  found("container_toolkit", "1.17.8", "nvidia-container-cli --version");
  found("docker", "28.3.3", "docker --version");
  found("driver", "580.65.06", "/proc/driver/nvidia/version");
  found("enroot", "4.1.2", "enroot version");
  found("fabric_manager", "580.65.06", "nv-fabricmanager --version");
  found("gpu.count", "8", "nvml (libnvidia-ml.so.1)");
  found("gpu.model", "NVIDIA B200", "nvml (libnvidia-ml.so.1)");
  found("gpu.vbios", "97.00.A5.00.0B", "nvml (libnvidia-ml.so.1)");
  found("hardware.product", "SYS-A22GA-NBRT", "/sys/class/dmi/id/product_name");
  found("hardware.serial", "S123456789", "/sys/class/dmi/id/product_serial");
  found("hardware.vendor", "Supermicro", "/sys/class/dmi/id/sys_vendor");
  found("kernel", "6.8.0-45-generic", "/proc/sys/kernel/osrelease");
  n.facts["nvlsm"] = formats::Fact{std::nullopt, "nvlsm --version", "nvlsm: not in PATH"};
  found("os", "Ubuntu 24.04", "/etc/os-release");
  found("os.id", "ubuntu", "/etc/os-release");
  found("os.pretty", "Ubuntu 24.04.3 LTS", "/etc/os-release");
  found("os.version_id", "24.04", "/etc/os-release");
  found("pyxis", "/usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so",
        "/usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so");
  found("pyxis.plugstack", "required /usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so",
        "/etc/slurm/plugstack.conf.d/pyxis.conf");
  found("slurm", "24.11.5", "slurmd -V");
  for (int i = 0; i < 8; ++i) {
    formats::NodeGpu gpu;
    gpu.index = i;
    gpu.name = "NVIDIA B200";
    gpu.uuid = "GPU-0000000" + std::to_string(i) + "-1111-2222-3333-444444444444";
    gpu.vbios = "97.00.A5.00.0B";
    gpu.health = "ok";
    n.gpus.push_back(gpu);
  }
  return n;
}

formats::ImageRecord sample_image_record() {
  const formats::SquashfsResult squashed = sample_squashfs_result();
  formats::ImageRecord r;
  r.name = "registry.example.invalid/ml/megatron-train";
  r.tag = "core_v0.19.0";
  r.digest = squashed.manifest_digest;
  r.manifest_digest = squashed.manifest_digest;
  r.platform = "linux/amd64";
  r.lock_path = "/etc/envlock/locks/megatron-train.lock.json";
  r.lock_sha256 = repeated("c1", 32);
  r.pin = "image";
  r.sqsh_file = "sha256-" + repeated("b1", 8) + "-" + repeated("e3", 8) + ".sqsh";
  r.sha256 = squashed.sha256;
  r.size = squashed.size;
  r.tree_digest = squashed.tree_digest;
  r.expected_from = "/local/images/megatron-train+core_v0.19.0.squashfs-result.json";
  r.squash_options = squashed.squash_options;
  r.source_date_epoch = squashed.source_date_epoch;
  return r;
}

} // namespace envlock::test
