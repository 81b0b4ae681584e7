#include "../testutil.hpp"
#include "diff/commit_log.hpp"
#include "diff/diff_render.hpp"
#include "diff/lock_diff.hpp"
#include "util/fs.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace envlock;

namespace {

lock::Lock read(const std::string& name) {
  auto l = lock::read_lock(test::data_path("diff/" + name));
  REQUIRE_MESSAGE(l.has_value(), l.error().message);
  return *l;
}

diff::LockDiff megatron_diff() {
  const lock::Lock a = read("old.lock.json");
  const lock::Lock b = read("new.lock.json");
  diff::LockDiff d = diff::diff_locks(a, b);
  diff::add_commit_logs(d, a, b, {}); // as the command does: no clone, so "unavailable"
  d.old_label = "old.lock.json";
  d.new_label = "new.lock.json";
  return d;
}

std::string golden(const std::string& name) {
  auto text = util::read_file(test::data_path("diff/" + name));
  REQUIRE_MESSAGE(text.has_value(), text.error().message);
  return *text;
}

const diff::PackageChange* find_package(const diff::LockDiff& d, const std::string& name) {
  for (const auto& p : d.packages) {
    if (p.name == name) {
      return &p;
    }
  }
  return nullptr;
}

// A lock holding only `packages`, so that the rendered package lines can be compared whole.
lock::Lock with_packages(std::vector<lock::UvPackage> packages) {
  lock::Lock l;
  l.python.uv_lock.packages = std::move(packages);
  return l;
}

// The package lines of the text form (after "uv packages: ..."), one per package.
std::string package_lines(const lock::Lock& a, const lock::Lock& b) {
  const std::string text = diff::render_diff_text(diff::diff_locks(a, b));
  const auto at = text.find("\nuv packages: ");
  REQUIRE(at != std::string::npos);
  return text.substr(text.find('\n', at + 1) + 1);
}

const std::string k_python_index = "https://python-index.invalid/simple";
const std::string k_cpu = "https://cpu-index.invalid/simple";

} // namespace

TEST_SUITE("report.lock_diff") {
  TEST_CASE("a lock compared with itself has no changes") {
    const lock::Lock l = read("old.lock.json");
    const diff::LockDiff d = diff::diff_locks(l, l);
    CHECK(d.empty());
    CHECK(d.core_warnings.empty());
  }

  TEST_CASE("core_v0.18.2 -> core_v0.19.0: packages in ML terms") {
    const diff::LockDiff d = megatron_diff();
    const auto n = diff::package_counts(d);
    CHECK(n.at("added") == 3);
    CHECK(n.at("removed") == 0);
    CHECK(n.at("downgraded") == 3);
    CHECK(n.at("changed") == 2);
    const auto* te = find_package(d, "transformer-engine");
    REQUIRE(te != nullptr);
    CHECK(te->kind == diff::PackageChangeKind::upgraded);
    CHECK(te->old_version == "2.16.0+b9d690e0");
    CHECK(te->new_version == "2.17.1+4329ff84");
    const auto* urllib3 = find_package(d, "urllib3");
    REQUIRE(urllib3 != nullptr);
    CHECK(urllib3->major);
    const auto* quack = find_package(d, "quack-kernels");
    REQUIRE(quack != nullptr);
    CHECK(quack->kind == diff::PackageChangeKind::downgraded);
    CHECK(find_package(d, "torch") == nullptr);
    CHECK(d.core_warnings.empty());
  }

  TEST_CASE("core_v0.18.2 -> core_v0.19.0: base image, expectations, commit") {
    const diff::LockDiff d = megatron_diff();
    REQUIRE(!d.sections.empty());
    CHECK(d.sections[0].id == "base_image");
    CHECK(d.sections[0].changes[1] ==
          diff::FieldChange{"tag", std::string("26.04-py3"), std::string("26.06-py3")});
    bool commit = false;
    for (const auto& s : d.sections) {
      for (const auto& c : s.changes) {
        commit = commit || (c.field == "megatron.commit" &&
                            c.new_value == "5be9626709af2722333bf54797c954c09edeada3");
      }
    }
    CHECK(commit);
  }

  TEST_CASE("installing torch over the base image is flagged") {
    const lock::Lock a = read("old.lock.json");
    lock::Lock b = a;
    b.python.uv_lock.packages.push_back({"nvidia-nccl-cu13", "2.31.1", "registry", "x"});
    for (auto& p : b.python.uv_lock.packages) {
      if (p.name == "torch") {
        p.version = "2.14.0";
      }
    }
    const diff::LockDiff d = diff::diff_locks(a, b);
    REQUIRE(d.core_warnings.size() == 2);
    CHECK(d.core_warnings[0] == "nvidia-nccl-cu13 2.31.1 (added) replaces the base image's NCCL: "
                                "check it against the image's tested combination");
    CHECK(d.core_warnings[1] == "torch 2.14.0 (upgraded) replaces the base image's PyTorch: check "
                                "it against the image's tested combination");
  }

  TEST_CASE("a source change is reported even at the same version") {
    const lock::Lock a = read("old.lock.json");
    lock::Lock b = a;
    for (auto& p : b.python.uv_lock.packages) {
      if (p.name == "numpy") {
        p.source_kind = "git";
        p.source_location = "https://git.example.invalid/numpy#abc";
      }
    }
    const diff::LockDiff d = diff::diff_locks(a, b);
    REQUIRE(d.packages.size() == 1);
    CHECK(d.packages[0].kind == diff::PackageChangeKind::changed);
    CHECK(d.packages[0].new_source == "git https://git.example.invalid/numpy#abc");
  }

  TEST_CASE("the packages each lock's uv sync leaves out, when they differ (--no-dev added)") {
    const lock::Lock a = read("old.lock.json");
    lock::Lock b = a;
    b.python.sync_args = {"--no-dev"};
    for (auto& p : b.python.uv_lock.packages) {
      p.not_selected = p.name == "pytest" || p.name == "numpy";
    }
    const diff::LockDiff d = diff::diff_locks(a, b);
    CHECK(d.packages.empty()); // the same packages are locked
    const auto python = std::find_if(d.sections.begin(), d.sections.end(),
                                     [](const diff::Section& s) { return s.id == "python"; });
    REQUIRE(python != d.sections.end());
    const auto change =
        std::find_if(python->changes.begin(), python->changes.end(),
                     [](const auto& c) { return c.field == "uv_lock.packages not selected"; });
    REQUIRE(change != python->changes.end());
    CHECK(change->old_value == "");
    CHECK(change->new_value == "numpy, pytest");
  }

  TEST_CASE("the training sample and its launch in their own section") {
    lock::Lock a;
    a.training = lock::Training{
        lock::HashedFile{"conf/train.yaml", "aa", 10}, std::nullopt,
        lock::TrainingData{"data/s", {"data/s.bin", "bb", 4096}, {"data/s.idx", "cc", 82}}, "ckpt"};
    a.launch = lock::Launch{"sbatch train.sbatch", {{"data", "/lustre/data"}}};
    lock::Lock b = a;
    b.training->data->bin = {"data/s.bin", "dd", 8192};
    b.training->tokenizer = std::vector<lock::HashedFile>{{"tok/vocab.json", "ee", 7}};
    b.launch->command = "sbatch --nodes 2 train.sbatch";
    b.launch->directories.erase("data");
    const diff::LockDiff d = diff::diff_locks(a, b);
    REQUIRE(d.sections.size() == 1);
    CHECK(d.sections[0].id == "training");
    const std::string text = diff::render_diff_text(d);
    CHECK(text.substr(text.find('\n') + 1) ==
          "\nTraining sample and launch\n"
          "  launch.command: sbatch train.sbatch -> sbatch --nodes 2 train.sbatch\n"
          "  launch.directories.data: /lustre/data -> (none)\n"
          "  training.data[data/s.bin]: bb, 4096 bytes -> dd, 8192 bytes\n"
          "  training.tokenizer[tok/vocab.json]: (none) -> ee, 7 bytes\n");
    CHECK(diff::diff_locks(b, b).empty());
  }

  TEST_CASE("golden: text, markdown and json") {
    const diff::LockDiff d = megatron_diff();
    CHECK(diff::render_diff_text(d) == golden("megatron.txt"));
    const auto md = diff::render_diff_markdown(d);
    REQUIRE(md.has_value());
    CHECK(*md == golden("megatron.md"));
    const auto json = diff::render_diff(d, diff::DiffFormat::json);
    REQUIRE(json.has_value());
    CHECK(*json == golden("megatron.json"));
  }

  TEST_CASE("several versions of one package: PEP 440 order, sources only when their set changed") {
    const lock::Lock a = with_packages({{"torch", "2.11.0", "registry", k_python_index},
                                        {"torch", "2.9.1", "registry", k_python_index}});
    const lock::Lock b = with_packages({{"torch", "2.10.0", "registry", k_python_index}});
    CHECK(package_lines(a, b) == "  ~ torch 2.9.1, 2.11.0 -> 2.10.0 (core: PyTorch)\n");
    const lock::Lock c = with_packages({{"torch", "2.11.0", "registry", k_python_index},
                                        {"torch", "2.9.1+cpu", "registry", k_cpu}});
    CHECK(package_lines(a, c) == "  ~ torch 2.9.1, 2.11.0 -> 2.9.1+cpu, 2.11.0 [source: registry " +
                                     k_python_index + " -> registry " + k_cpu + ", registry " +
                                     k_python_index + "] (core: PyTorch)\n");
  }

  TEST_CASE("one version from two sources prints both sources, not the version twice") {
    const lock::Lock a = with_packages({});
    const lock::Lock b = with_packages(
        {{"torch", "2.9.1", "registry", k_cpu}, {"torch", "2.9.1", "registry", k_python_index}});
    CHECK(package_lines(a, b) == "  + torch 2.9.1 [sources: registry " + k_cpu + ", registry " +
                                     k_python_index + "] (core: PyTorch)\n");
    const lock::Lock c = with_packages(
        {{"torch", "2.10.0", "registry", k_cpu}, {"torch", "2.10.0", "registry", k_python_index}});
    CHECK(package_lines(b, c) == "  ^ torch 2.9.1 -> 2.10.0 [sources: registry " + k_cpu +
                                     ", registry " + k_python_index + "] (core: PyTorch)\n");
    const auto json = diff::render_diff(diff::diff_locks(b, c), diff::DiffFormat::json);
    REQUIRE(json.has_value());
    CHECK(json->find("\"sources\": \"registry " + k_cpu + ", registry " + k_python_index + "\"") !=
          std::string::npos);
  }

  TEST_CASE("the same versions and sources paired differently name the pairs") {
    const lock::Lock a = with_packages(
        {{"torch", "2.9.1", "registry", k_cpu}, {"torch", "2.10.0", "registry", k_python_index}});
    const lock::Lock b = with_packages(
        {{"torch", "2.9.1", "registry", k_python_index}, {"torch", "2.10.0", "registry", k_cpu}});
    CHECK(package_lines(a, b) ==
          "  ~ torch 2.9.1, 2.10.0 -> 2.9.1, 2.10.0 [source: 2.9.1: registry " + k_cpu +
              "; 2.10.0: registry " + k_python_index + " -> 2.9.1: registry " + k_python_index +
              "; 2.10.0: registry " + k_cpu + "] (core: PyTorch)\n");
  }

  TEST_CASE("a package without a version prints as such") {
    const lock::Lock a =
        with_packages({{"megatron-core", "", "editable", "."}, {"tools", "", "virtual", "tools"}});
    const lock::Lock b = with_packages(
        {{"megatron-core", "", "directory", "."}, {"plugin", "", "path", "plugins/x"}});
    CHECK(package_lines(a, b) ==
          "  ~ megatron-core (no version) -> (no version) [source: editable . -> directory .]\n"
          "  + plugin (no version)\n"
          "  - tools (no version)\n");
    const auto md = diff::render_diff_markdown(diff::diff_locks(a, b));
    REQUIRE(md.has_value());
    CHECK(md->find("| megatron-core | changed | `(no version)` | `(no version)` |") !=
          std::string::npos);
  }

  TEST_CASE("versions beyond 64 bits order as numbers") {
    const lock::Lock a =
        with_packages({{"x", "1.12345678901234567890", "registry", k_python_index},
                       {"y", "1.0+1234567890123456789012", "registry", k_python_index}});
    const lock::Lock b = with_packages(
        {{"x", "1.2", "registry", k_python_index}, {"y", "1.0.1", "registry", k_python_index}});
    CHECK(package_lines(a, b) == "  v x 1.12345678901234567890 -> 1.2\n"
                                 "  ^ y 1.0+1234567890123456789012 -> 1.0.1\n");
  }
}

TEST_CASE("diff: one commit is said in the singular, in text and Markdown") {
  diff::LockDiff d = megatron_diff();
  d.commit_logs = {{"megatron", "ahead", 1, {{"abc1234", "Fix the loader"}}, ""}};
  const std::string text = diff::render_diff_text(d);
  CHECK(text.find("megatron log: 1 commit since the old one\n") != std::string::npos);
  const auto markdown = diff::render_diff_markdown(d);
  REQUIRE(markdown.has_value());
  CHECK(markdown->find("1 commit since the old commit") != std::string::npos);
  CHECK(markdown->find("1 commits") == std::string::npos);
  d.commit_logs[0].count = 2;
  CHECK(diff::render_diff_text(d).find("megatron log: 2 commits since the old one\n") !=
        std::string::npos);
}
