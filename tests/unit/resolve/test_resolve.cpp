#include "resolve/drift.hpp"
#include "resolve/resolve.hpp"
#include "resolve_project.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>

using namespace envlock;

using test::k_amd64;
using test::k_index;
using test::k_moved;
using test::Project;
using test::registry_answers;

TEST_SUITE("lock") {

  TEST_CASE("resolve_lock fills every field, relative paths only") {
    const Project p;
    const auto lock =
        resolve::resolve_lock(p.manifest, p.dir / "envlock.lock.json", registry_answers());
    REQUIRE(lock.has_value());
    CHECK(lock->manifest_path == "envlock.yaml");
    CHECK(lock->manifest_sha256 == p.manifest.sha256);
    CHECK(lock->base_image == lock::ImagePin{"registry.example.invalid/nvidia/pytorch:26.06-py3",
                                             "registry.example.invalid/nvidia/pytorch", "26.06-py3",
                                             k_index, oci::media_type::oci_index, "linux/amd64",
                                             k_amd64});
    CHECK(lock->sources.at("megatron") == lock::GitPin{"repo", "v2", p.git.c2});
    CHECK(lock->python.project == "py");
    CHECK(lock->python.uv_lock.path == "py/uv.lock");
    CHECK(lock->python.uv_lock.sha256 == util::sha256_file_hex(p.dir / "py/uv.lock").value());
    CHECK(lock->python.pyproject_sha256 ==
          util::sha256_file_hex(p.dir / "py/pyproject.toml").value());
    CHECK(lock->python.uv_lock.revision == 2);
    REQUIRE(lock->python.uv_lock.packages.size() == 1);
    CHECK(lock->python.sync_args == std::vector<std::string>{"--extra", "dev"});
    CHECK(lock->build_args.at("NCCL_VERSION") == "2.30.7");
    CHECK(lock->expect.cuda == "13.3");
    CHECK(lock->enroot.source_date_epoch == 1700000000);
    const std::string json = lock::to_json(*lock).dump();
    CHECK(json.find(p.dir.string()) == std::string::npos);
  }

  TEST_CASE("the manifest path is relative to the lock's folder") {
    const Project p;
    const auto lock =
        resolve::resolve_lock(p.manifest, p.dir / "locks/envlock.lock.json", registry_answers());
    REQUIRE(lock.has_value());
    CHECK(lock->manifest_path == "../envlock.yaml");
  }

  TEST_CASE("tag@digest: the registry must agree") {
    Project p;
    p.manifest.base.image = "registry.example.invalid/nvidia/pytorch:26.06-py3@" + k_index;
    CHECK(resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers()).has_value());
    const auto wrong =
        resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers(k_moved));
    REQUIRE_FALSE(wrong.has_value());
    CHECK(wrong.error().code == ExitCode::failed);
    CHECK(wrong.error().message == "base.image: the registry says "
                                   "registry.example.invalid/nvidia/pytorch:26.06-py3 is " +
                                       k_moved + ", the manifest pins " + k_index);
  }

  TEST_CASE("a ref that does not exist names the source") {
    Project p;
    p.manifest.sources["megatron"].ref = "core_v9";
    const auto lock = resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers());
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().code == ExitCode::usage);
    CHECK(lock.error().message ==
          "sources.megatron: ref 'core_v9' not found in repo; tags of repo: same, v1, v2");
  }

  TEST_CASE("a missing uv.lock is an input error naming it") {
    Project p;
    p.manifest.python.project = "elsewhere";
    const auto lock = resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers());
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().message ==
          "python.project: cannot read elsewhere/uv.lock: No such file or directory");
  }

  TEST_CASE("a project whose uv.lock was never made: run uv lock") {
    Project p;
    std::filesystem::remove(p.dir / "py/uv.lock");
    const auto lock = resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers());
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().code == ExitCode::usage);
    CHECK(lock.error().message == "python.project: py/uv.lock does not exist; run 'uv lock' in py "
                                  "to make it (and commit it), then 'envlock lock' again");
  }

  TEST_CASE("the packages uv sync leaves out are marked in the lock") {
    Project p;
    test::write_text(p.dir / "py/uv.lock",
                     "version = 1\nrevision = 2\nrequires-python = \">=3.12\"\n\n"
                     "[[package]]\nname = \"b\"\nversion = \"1\"\nsource = { editable = \".\" }\n"
                     "dependencies = [{ name = \"c\" }]\n\n"
                     "[package.dev-dependencies]\ndev = [{ name = \"pytest\" }]\n\n"
                     "[[package]]\nname = \"c\"\nversion = \"2\"\n"
                     "source = { registry = \"https://pypi.example.invalid/simple\" }\n\n"
                     "[[package]]\nname = \"pytest\"\nversion = \"8\"\n"
                     "source = { registry = \"https://pypi.example.invalid/simple\" }\n");
    p.manifest.python.sync_args = {"--no-dev"};
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = resolve::resolve_lock(p.manifest, path, registry_answers());
    REQUIRE_MESSAGE(lock.has_value(), lock.error().message);
    const auto& packages = lock->python.uv_lock.packages;
    REQUIRE(packages.size() == 3);
    CHECK_FALSE(packages[0].not_selected); // b, the project
    CHECK_FALSE(packages[1].not_selected); // c, its dependency
    CHECK(packages[2].not_selected);       // pytest, the dev group --no-dev leaves out
    CHECK(resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {})
              .value()
              .empty());
    p.manifest.python.sync_args.clear(); // the default group dev: pytest is in
    const auto drift =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(drift.has_value());
    CHECK(std::find(drift->begin(), drift->end(),
                    "drift: python.uv_lock.packages.pytest: lock has \"8\" (registry "
                    "https://pypi.example.invalid/simple) not selected, uv.lock has \"8\" "
                    "(registry https://pypi.example.invalid/simple)") != drift->end());
  }

  TEST_CASE("drift: none, then each changed field on its own line") {
    Project p;
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = resolve::resolve_lock(p.manifest, path, registry_answers());
    REQUIRE(lock.has_value());
    const auto none =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(none.has_value());
    CHECK(none->empty());

    p.manifest.expect.cuda = "13.4";
    p.manifest.python.sync_args.clear();
    p.manifest.sources["extra"] = {"repo", "main"};
    const std::string old_uv = lock->python.uv_lock.sha256;
    const std::string uv_text = "version = 1\nrevision = 2\nrequires-python = \">=3.12\"\n\n"
                                "[[package]]\nname = \"b\"\nversion = \"2\"\n"
                                "source = { editable = \".\" }\n";
    test::write_text(p.dir / "py/uv.lock", uv_text);
    const std::string new_uv = util::sha256_hex(uv_text);
    const auto drift =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(drift.has_value());
    CHECK(*drift ==
          std::vector<std::string>{
              "drift: expect.cuda: lock has \"13.3\", manifest has \"13.4\"",
              "drift: python.sync_args: lock has [\"--extra\",\"dev\"], manifest has []",
              "drift: python.uv_lock.sha256: lock has " + old_uv + ", py/uv.lock is now " + new_uv,
              "drift: python.uv_lock.packages.b: upgraded: lock has \"1\" (editable .), uv.lock "
              "has \"2\" (editable .)",
              "drift: sources.extra: lock has nothing, manifest has "
              "{\"git\":\"repo\",\"ref\":\"main\"}"});
  }

  TEST_CASE("drift: the lock's uv.lock table edited while the file stayed the same") {
    const Project p;
    const auto path = p.dir / "envlock.lock.json";
    auto lock = resolve::resolve_lock(p.manifest, path, registry_answers());
    REQUIRE(lock.has_value());
    lock->python.uv_lock.packages.at(0).version = "2";
    lock->python.uv_lock.packages.push_back({"torch", "2.11.0", "registry", ""});
    lock->python.uv_lock.revision = 3;
    const auto drift =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(drift.has_value());
    CHECK(*drift == std::vector<std::string>{
                        "drift: python.uv_lock.revision: lock has 3, uv.lock has 2",
                        "drift: python.uv_lock.packages.b: lock has \"2\" (editable .), uv.lock "
                        "has \"1\" (editable .)",
                        "drift: python.uv_lock.packages.torch: lock has \"2.11.0\" (registry), "
                        "uv.lock has nothing"});
  }

  TEST_CASE("drift with refresh: a moved tag and a moved branch") {
    Project p;
    p.manifest.sources["megatron"].ref = "release";
    const auto path = p.dir / "envlock.lock.json";
    auto lock = resolve::resolve_lock(p.manifest, path, registry_answers());
    REQUIRE(lock.has_value());
    const auto same = resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::remote_refs,
                                          registry_answers());
    REQUIRE(same.has_value());
    CHECK(same->empty());
    lock->sources["megatron"].commit = p.git.c1;
    const auto moved = resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::remote_refs,
                                           registry_answers(k_moved));
    REQUIRE(moved.has_value());
    CHECK(
        *moved ==
        std::vector<std::string>{
            "drift: base_image.digest: registry.example.invalid/nvidia/pytorch:26.06-py3 "
            "moved from " +
                k_index + " to " + k_moved,
            "drift: sources.megatron.commit: release moved from " + p.git.c1 + " to " + p.git.c2});
  }

  TEST_CASE("training: each file hashed with its size; launch copied") {
    Project p;
    test::write_text(p.dir / "conf/train.yaml", "layers: 24\n");
    test::write_text(p.dir / "tok/vocab.json", "{}");
    test::write_text(p.dir / "data/sample.bin", std::string(3000, 'x'));
    test::write_text(p.dir / "data/sample.idx", "MMIDIDX");
    p.manifest.training = manifest::Training{
        "./conf/train.yaml", std::vector<std::string>{"tok/vocab.json"}, "data/sample", "ckpt"};
    p.manifest.launch = manifest::Launch{"sbatch train.sbatch", {{"data", "/lustre/data"}}};
    std::vector<std::string> shown;
    const resolve::FileProgress progress = [&](const std::string& path, std::uint64_t hashed,
                                               std::uint64_t size) {
      shown.push_back(path + " " + std::to_string(hashed) + "/" + std::to_string(size));
    };
    const auto lock =
        resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers(), {}, progress);
    REQUIRE_MESSAGE(lock.has_value(), lock.error().message);
    REQUIRE(lock->training.has_value());
    CHECK(lock->training->config ==
          lock::HashedFile{"conf/train.yaml", util::sha256_hex("layers: 24\n"), 11});
    CHECK(lock->training->tokenizer ==
          std::vector<lock::HashedFile>{{"tok/vocab.json", util::sha256_hex("{}"), 2}});
    REQUIRE(lock->training->data.has_value());
    CHECK(lock->training->data->prefix == "data/sample");
    CHECK(lock->training->data->bin ==
          lock::HashedFile{"data/sample.bin", util::sha256_hex(std::string(3000, 'x')), 3000});
    CHECK(lock->training->data->idx.path == "data/sample.idx");
    CHECK(lock->training->checkpoint_dir == "ckpt");
    CHECK(lock->launch == lock::Launch{"sbatch train.sbatch", {{"data", "/lustre/data"}}});
    CHECK(shown == std::vector<std::string>{"conf/train.yaml 11/11", "tok/vocab.json 2/2",
                                            "data/sample.bin 3000/3000", "data/sample.idx 7/7"});
  }

  TEST_CASE("training: a file that cannot be read names the field and the file") {
    Project p;
    p.manifest.training = manifest::Training{std::nullopt, std::nullopt, "data/gone", ""};
    const auto lock = resolve::resolve_lock(p.manifest, p.dir / "l.json", registry_answers());
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().code == ExitCode::usage);
    CHECK(lock.error().message ==
          "training.data: cannot read data/gone.bin: No such file or directory");
  }

  TEST_CASE("drift: a changed or missing training file, a changed launch command") {
    Project p;
    test::write_text(p.dir / "conf/train.yaml", "layers: 24\n");
    test::write_text(p.dir / "data/sample.bin", "tokens");
    test::write_text(p.dir / "data/sample.idx", "index");
    p.manifest.training = manifest::Training{"conf/train.yaml", std::nullopt, "data/sample", ""};
    p.manifest.launch = manifest::Launch{"sbatch train.sbatch", {}};
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = resolve::resolve_lock(p.manifest, path, registry_answers());
    REQUIRE(lock.has_value());
    const auto none =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(none.has_value());
    CHECK(none->empty());

    test::write_text(p.dir / "data/sample.bin", "other tokens");
    std::filesystem::remove(p.dir / "conf/train.yaml");
    p.manifest.launch->command = "sbatch train2.sbatch";
    const auto drift =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(drift.has_value());
    CHECK(*drift ==
          std::vector<std::string>{
              "drift: launch.command: lock has \"sbatch train.sbatch\", manifest has \"sbatch "
              "train2.sbatch\"",
              "drift: training.config conf/train.yaml: cannot read (No such file or directory), "
              "the lock has " +
                  util::sha256_hex("layers: 24\n") + " (11 bytes)",
              "drift: training.data data/sample.bin: sha256 " + util::sha256_hex("other tokens") +
                  " (12 bytes), the lock has " + util::sha256_hex("tokens") + " (6 bytes)"});

    p.manifest.training->data = "data/other";
    p.manifest.launch.reset();
    const auto moved =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE(moved.has_value());
    CHECK(*moved ==
          std::vector<std::string>{"drift: launch: lock has {\"command\":\"sbatch train.sbatch\"}, "
                                   "manifest has nothing",
                                   "drift: training.data: lock has \"data/sample\", manifest has "
                                   "\"data/other\""});
  }

} // TEST_SUITE
