#include "../testutil.hpp"
#include "fleet/batch_script.hpp"

#include <doctest/doctest.h>

using envlock::fleet::render_verify_script;
using envlock::fleet::RunMode;
using envlock::fleet::VerifyScript;

namespace {

const std::string k_digest =
    "sha256:1111111111111111111111111111111111111111111111111111111111111111";

VerifyScript container_job() {
  VerifyScript job;
  job.nodes = {"node1", "node2"};
  job.results = "/shared/acceptance/run1";
  job.script = "/shared/acceptance/run1/fleet-verify.sbatch";
  job.lock = "/shared/envlock.lock.json";
  job.verifier = "/shared/bin/envlock-verify";
  job.image = "docker://registry.example.invalid/team/train@" + k_digest;
  job.slurm.account = "ml";
  job.slurm.qos = "acceptance";
  job.slurm.time = "00:20:00";
  job.slurm.reservation = "maint";
  return job;
}

} // namespace

TEST_SUITE("fleet.batch_script") {
  TEST_CASE("container mode runs the verifier in the image through pyxis, by digest") {
    auto text = render_verify_script(container_job());
    REQUIRE(text.has_value());
    CHECK(text->find("--container-image='registry.example.invalid#team/train@" + k_digest + "'") !=
          std::string::npos);
    CHECK(text->find("--container-mounts='/shared/bin/envlock-verify:/envlock/envlock-verify:ro,"
                     "/shared/envlock.lock.json:/envlock/lock.json:ro,"
                     "/shared/acceptance/run1:/shared/acceptance/run1'") != std::string::npos);
    CHECK(text->find("'\\''/envlock/envlock-verify'\\'' --lock '\\''/envlock/lock.json'\\''") !=
          std::string::npos);
    CHECK(text->find("#SBATCH --nodes=2\n") != std::string::npos);
    CHECK(text->find("#SBATCH --nodelist=node1,node2\n") != std::string::npos);
    CHECK(text->find("#SBATCH --account=ml\n#SBATCH --qos=acceptance\n#SBATCH --time=00:20:00\n"
                     "#SBATCH --reservation=maint\n") != std::string::npos);
    CHECK(text->find("#SBATCH --output=/shared/acceptance/run1/slurm-%j.out\n") !=
          std::string::npos);
    CHECK(text->find("node --check") == std::string::npos);
    CHECK(text->find("&#39;") == std::string::npos); // nothing HTML-escaped
  }

  TEST_CASE("a .sqsh image is given to pyxis as its path") {
    auto job = container_job();
    job.image = "/shared/images/train.sqsh";
    auto text = render_verify_script(job);
    REQUIRE(text.has_value());
    CHECK(text->find("--container-image='/shared/images/train.sqsh'") != std::string::npos);
  }

  TEST_CASE("--no-container runs the verifier itself, host checks first") {
    auto job = container_job();
    job.mode = RunMode::no_container;
    job.host_checker = "/shared/bin/envlock";
    job.verifier_args = {"--no-gpu", "--root=/local/it's"};
    auto text = render_verify_script(job);
    REQUIRE(text.has_value());
    CHECK(text->find("--container-image") == std::string::npos);
    CHECK(text->find("'\\''/shared/bin/envlock'\\'' node --check --format json") !=
          std::string::npos);
    CHECK(text->find("'\\''/shared/bin/envlock-verify'\\'' --lock '\\''/shared/envlock.lock.json'"
                     "\\'' '\\''--no-gpu'\\'' '\\''--root=/local/it'\\''\\'\\'''\\''s'\\''") !=
          std::string::npos);
    CHECK(text->find("directly on the node (--no-container)") != std::string::npos);
  }

  TEST_CASE("white space in an #SBATCH value is refused") {
    auto job = container_job();
    job.slurm.account = "ml team";
    auto text = render_verify_script(job);
    REQUIRE_FALSE(text.has_value());
    CHECK(text.error().message ==
          "--account: white space cannot be passed to #SBATCH lines: 'ml team'");
  }

  TEST_CASE("the whole container-mode script matches the golden file") {
    auto text = render_verify_script(container_job());
    REQUIRE(text.has_value());
    const auto golden =
        envlock::util::read_file(envlock::test::data_path("fleet/golden_verify.sbatch"));
    REQUIRE(golden.has_value());
    CHECK(*text == *golden);
  }
}
