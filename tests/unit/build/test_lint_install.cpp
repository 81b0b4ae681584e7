#include "build/lint/lint.hpp"
#include "build/lint/report.hpp"
#include "util/json.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

namespace {

const std::string k_commit = "0123456789abcdef0123456789abcdef01234567";

// "LINE: error: MESSAGE" of each finding, with its rule id.
std::vector<std::string> install_findings(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& f : build::lint_dockerfile(text)) {
    out.push_back(std::to_string(f.line) + ":" + std::to_string(f.column) + " " + f.rule + ": " +
                  f.message);
  }
  return out;
}

} // namespace

TEST_SUITE("lint.install") {
  TEST_CASE("git clone: floating unless a later checkout of a commit in the stage pins it") {
    CHECK(install_findings("RUN git clone --branch main https://g.example.invalid/a.git\n") ==
          std::vector<std::string>{
              "1:1 git-clone-not-pinned: git clone --branch main https://g.example.invalid/a.git "
              "is not pinned to a commit (no git checkout COMMIT, 40 hex digits, follows it in "
              "this stage)"});
    CHECK(
        install_findings("RUN git clone https://g.example.invalid/a.git && cd a && git checkout " +
                         k_commit + "\n")
            .empty());
    CHECK(install_findings("RUN git clone -b v1 https://g.example.invalid/a.git /src\n"
                           "RUN git -C /src reset --hard " +
                           k_commit + "\n")
              .empty());
    CHECK(install_findings("RUN git init a && cd a && git fetch https://g.example.invalid/a.git " +
                           k_commit + " && git checkout FETCH_HEAD\n")
              .empty());
    // A checkout in the next stage pins nothing of this one.
    CHECK(install_findings("FROM scratch AS a\nRUN git clone https://g.example.invalid/a.git\n"
                           "FROM scratch AS b\nRUN git checkout " +
                           k_commit + "\n") ==
          std::vector<std::string>{"2:1 git-clone-not-pinned: git clone https://g.example.invalid/"
                                   "a.git is not pinned to a commit (no git checkout COMMIT, 40 "
                                   "hex digits, follows it in this stage)"});
  }

  TEST_CASE("git checkout of a branch or tag floats; of files or a new branch it does not") {
    CHECK(
        install_findings("RUN git clone https://g.example.invalid/a.git && git checkout main\n") ==
        std::vector<std::string>{
            "1:1 git-checkout-not-pinned: git checkout main does not pin a commit (write git "
            "checkout COMMIT, its 40 hex digits)",
            "1:1 git-clone-not-pinned: git clone https://g.example.invalid/a.git is not pinned "
            "to a commit (no git checkout COMMIT, 40 hex digits, follows it in this stage)"});
    CHECK(install_findings("RUN git checkout -- setup.py && git checkout -b work\n").empty());
  }

  TEST_CASE("conda install: NAME=VERSION pins; ranges and bare names do not") {
    CHECK(install_findings("RUN conda install -y -c conda-forge numpy=1.26.4 'scipy==1.13.1'\n")
              .empty());
    CHECK(install_findings("RUN conda install -y -n base -c conda-forge numpy 'scipy>=1.13' "
                           "cudatoolkit=11.8\n") ==
          std::vector<std::string>{"1:1 conda-not-pinned: conda install without versions: numpy, "
                                   "scipy>=1.13 (write NAME=VERSION)"});
    CHECK(install_findings("RUN mamba create -y -p /opt/env python\n") ==
          std::vector<std::string>{
              "1:1 conda-not-pinned: mamba create without versions: python (write NAME=VERSION)"});
  }

  TEST_CASE("npm install -g: NAME@X.Y.Z pins; a local install is not checked") {
    CHECK(install_findings("RUN npm install -g pyright@1.1.380 @scope/tool@2.0.0-rc.1\n").empty());
    CHECK(install_findings("RUN npm install left-pad\n").empty());
    CHECK(install_findings("RUN npm i --global pyright @scope/tool@^2 yarn@latest\n") ==
          std::vector<std::string>{"1:1 npm-not-pinned: npm i -g without exact versions: pyright, "
                                   "@scope/tool@^2, yarn@latest (write NAME@VERSION)"});
  }

  TEST_CASE("a heredoc command's column is where it starts") {
    CHECK(install_findings("RUN <<EOF\n    npm install -g yarn\nEOF\n") ==
          std::vector<std::string>{"2:5 npm-not-pinned: npm install -g without exact versions: "
                                   "yarn (write NAME@VERSION)"});
  }
}

TEST_SUITE("lint.report") {
  TEST_CASE("text, JSON and SARIF of two files") {
    std::vector<build::LintedFile> files{
        {"a/Dockerfile", build::lint_dockerfile("FROM python:3.12\nRUN apt-get install -y gcc\n")},
        {"-", {}}};
    CHECK(build::lint_error_count(files) == 1);
    CHECK(build::lint_report_text(files) ==
          "a/Dockerfile:1: error: FROM python:3.12 is not pinned by digest (write "
          "NAME@sha256:DIGEST)\n"
          "a/Dockerfile:2: warning: apt-get install without versions: gcc (write "
          "PACKAGE=VERSION)\n"
          "a/Dockerfile: 1 error, 1 warning\n"
          "-: 0 errors, 0 warnings\n");
    const auto json = build::lint_report_json(files);
    CHECK(json["schema"] == "envlock.lint/v1");
    CHECK(json["errors"] == 1);
    CHECK(json["warnings"] == 1);
    CHECK(util::canonical_json(json["files"][0]["findings"][1]) ==
          "{\n  \"column\": 1,\n  \"line\": 2,\n  \"message\": \"apt-get install without "
          "versions: gcc (write PACKAGE=VERSION)\",\n  \"rule\": \"apt-not-pinned\",\n  "
          "\"severity\": \"warning\"\n}\n");
    const auto sarif = build::lint_report_sarif(files, "0.1.0");
    CHECK(sarif["version"] == "2.1.0");
    CHECK(sarif["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
    const auto& run = sarif["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "envlock");
    CHECK(run["tool"]["driver"]["rules"].size() == build::lint_rule_ids().size());
    REQUIRE(run["results"].size() == 2);
    const auto& first = run["results"][0];
    CHECK(first["ruleId"] == "from-not-pinned");
    CHECK(first["ruleIndex"] == 0);
    CHECK(first["level"] == "error");
    CHECK(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a/Dockerfile");
    CHECK(first["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
    CHECK(run["results"][1]["level"] == "warning");
  }

  TEST_CASE("every rule a finding names is listed") {
    const auto findings = build::lint_dockerfile(
        "FROM python:3.12\nARG X\nFROM ${X}\nRUN curl https://h.example.invalid/x\n"
        "ADD https://h.example.invalid/y /y\nRUN uv sync && uv sync --locked\n"
        "RUN uv pip install a && pip install b && apt-get install c\n"
        "RUN git clone https://g.example.invalid/a.git && git checkout main\n"
        "RUN conda install d && npm install -g e\n");
    std::vector<std::string> ids;
    for (const auto& rule : build::lint_rule_ids()) {
      ids.push_back(rule.id);
    }
    std::vector<std::string> named;
    for (const auto& f : findings) {
      CHECK_MESSAGE(std::find(ids.begin(), ids.end(), f.rule) != ids.end(), f.rule);
      if (std::find(named.begin(), named.end(), f.rule) == named.end()) {
        named.push_back(f.rule);
      }
    }
    CHECK(named.size() == ids.size());
  }
}
