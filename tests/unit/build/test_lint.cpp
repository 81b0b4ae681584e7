#include "../testutil.hpp"
#include "build/dockerfile_parse.hpp"
#include "build/lint/lint.hpp"
#include "build/render.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

namespace {

std::vector<std::string> lines_of(std::string_view text, std::string_view file = "Dockerfile") {
  std::vector<std::string> out;
  for (const auto& finding : build::lint_dockerfile(text)) {
    out.push_back(build::format_finding(file, finding));
  }
  return out;
}

} // namespace

TEST_SUITE_BEGIN("lint");

TEST_CASE("the upstream-style recipe: every planted problem, word for word, with its line") {
  const auto text = util::read_file(test::data_path("build/lint/Dockerfile.ci.dev"));
  const auto expected = util::read_file(test::data_path("build/lint/lint.expected"));
  REQUIRE(text.has_value());
  REQUIRE(expected.has_value());
  auto want = util::split(*expected, '\n');
  want.pop_back(); // the trailing newline
  want.pop_back(); // the summary line, printed by the command
  CHECK(util::join(lines_of(*text, "Dockerfile.ci.dev"), "\n") == util::join(want, "\n"));
}

TEST_CASE("what envlock render writes passes") {
  build::RenderRequest request;
  request.lock_path = test::data_path("render/good_lock.json");
  for (const auto verifier : {build::Verifier::omit, build::Verifier::include}) {
    request.verifier = verifier;
    const auto dockerfile = build::render_file(request);
    REQUIRE(dockerfile.has_value());
    CHECK(lines_of(*dockerfile).empty());
  }
}

TEST_CASE("FROM: a digest passes, a stage name and scratch pass, a tag does not") {
  const std::string digest = "@sha256:" + std::string(64, 'a');
  CHECK(lines_of("FROM r.example.invalid/a" + digest + " AS base\nFROM base\nFROM scratch\n")
            .empty());
  CHECK(lines_of("FROM --platform=linux/amd64 python:3.12\n") ==
        std::vector<std::string>{"Dockerfile:1: error: FROM python:3.12 is not pinned by digest "
                                 "(write NAME@sha256:DIGEST)"});
  CHECK(lines_of("ARG IMG=r.example.invalid/a" + digest + "\nFROM ${IMG}\n").empty());
}

TEST_CASE("downloads: a sha256sum -c in the same RUN passes") {
  CHECK(lines_of("RUN curl -fsSLo /tmp/x https://f.example.invalid/x \\\n"
                 " && echo \"abc  /tmp/x\" | sha256sum -c -\n")
            .empty());
  CHECK(lines_of("RUN curl -fsSLo /tmp/x https://f.example.invalid/x\n"
                 "RUN echo \"abc  /tmp/x\" | sha256sum -c -\n") ==
        std::vector<std::string>{"Dockerfile:1: error: curl https://f.example.invalid/x downloads "
                                 "without a checksum check (add sha256sum -c in the same RUN)"});
}

TEST_CASE("uv: --locked, --frozen, ENV UV_LOCKED=1 and an inline UV_FROZEN=1 pass") {
  CHECK(lines_of("RUN uv sync --frozen\nRUN UV_FROZEN=1 uv sync\n").empty());
  CHECK(lines_of("ENV UV_LOCKED=1\nRUN uv sync\n").empty());
  CHECK(lines_of("FROM scratch AS a\nENV UV_LOCKED=1\nFROM scratch AS b\nRUN uv sync\n") ==
        std::vector<std::string>{"Dockerfile:4: error: uv sync without --locked or --frozen may "
                                 "resolve again and rewrite uv.lock"});
}

TEST_CASE("uv pip: it installs outside uv.lock, and only hashes pin it") {
  const std::string advice =
      " installs packages outside uv.lock (it neither reads nor writes it): add them to the "
      "project and its uv.lock (uv add, then uv sync --locked), or pin them with hashes (uv pip ";
  // Neither --locked (uv pip has none) nor UV_LOCKED (uv pip ignores it) changes that.
  CHECK(lines_of("ENV UV_LOCKED=1\nRUN uv pip install x\n") ==
        std::vector<std::string>{"Dockerfile:2: error: uv pip install" + advice +
                                 "install --require-hashes -r requirements.txt)"});
  CHECK(lines_of("RUN uv pip sync requirements.txt\n") ==
        std::vector<std::string>{"Dockerfile:1: error: uv pip sync" + advice +
                                 "sync --require-hashes -r requirements.txt)"});
  CHECK(lines_of("RUN uv pip install --require-hashes -r requirements.txt\n"
                 "RUN UV_REQUIRE_HASHES=1 uv pip sync requirements.txt\n")
            .empty());
}

TEST_CASE("pip: options that take a value (pip install --help) are not package names") {
  CHECK(lines_of("RUN pip install --root-user-action ignore --timeout 60 --retries 5 --proxy "
                 "http://p.example.invalid:3128 --cert /c.pem --client-cert /k.pem "
                 "--exists-action w --keyring-provider disabled --use-feature truststore "
                 "--use-deprecated legacy-certs --group dev --resume-retries 3 a==1\n")
            .empty());
}

TEST_CASE("ADD: the advice says which builders read --checksum") {
  CHECK(lines_of("ADD https://f.example.invalid/x /x\n") ==
        std::vector<std::string>{
            "Dockerfile:1: error: ADD https://f.example.invalid/x has no checksum (write ADD "
            "--checksum=sha256:HEX, which BuildKit's Dockerfile 1.6 reads but buildah 1.28 and "
            "podman 4.3 refuse; or download it in a RUN and check it with sha256sum -c)"});
}

TEST_CASE("pip: pinned names, paths, URLs and requirement files pass") {
  CHECK(lines_of("RUN pip install a==1 ./local /w/x.whl git+https://g.example.invalid/r@v1 "
                 "-r req.txt -c c.txt --index-url https://i.example.invalid/simple\n")
            .empty());
  CHECK(lines_of("RUN python3 -m pip install --no-deps 'b~=2.0'\n") ==
        std::vector<std::string>{"Dockerfile:1: error: pip install b~=2.0 is not pinned (write "
                                 "NAME==VERSION, or add it to the project's uv.lock)"});
}

TEST_CASE("apt-get: versions pass; a missing one is a warning") {
  CHECK(lines_of("RUN apt-get install -y a=1.0 b=2\n").empty());
  CHECK(lines_of("RUN apt-get update && apt-get install -y --no-install-recommends a b=2 c\n") ==
        std::vector<std::string>{"Dockerfile:1: warning: apt-get install without versions: a, c "
                                 "(write PACKAGE=VERSION)"});
}

TEST_CASE("heredoc scripts: each finding carries the line of its command") {
  const std::string text = "FROM scratch\n"
                           "RUN bash -ex <<\"EOF\"\n"
                           "    apt-get update\n"
                           "    apt-get install -y --no-install-recommends gettext python3-venv\n"
                           "    wget https://h.example.invalid/yq_linux_${YQ_ARCH} -O /usr/bin/yq\n"
                           "    curl -LsSf https://h.example.invalid/uv/install.sh | sh\n"
                           "EOF\n"
                           "RUN --mount=type=cache,target=/root/.cache/uv \\\n"
                           "    bash -ex <<\"EOF\"\n"
                           "    uv sync --only-group build\n"
                           "    uv sync --extra dev --link-mode copy --locked \\\n"
                           "        --no-install-package torch\n"
                           "    pip install ninja # for the kernels\n"
                           "EOF\n";
  const std::string no_check =
      " downloads without a checksum check (add sha256sum -c in the same RUN)";
  const auto found = lines_of(text);
  REQUIRE(found.size() == 6);
  CHECK(found[0] == "Dockerfile:4: warning: apt-get install without versions: gettext, "
                    "python3-venv (write PACKAGE=VERSION)");
  CHECK(found[1] ==
        "Dockerfile:5: error: wget https://h.example.invalid/yq_linux_${YQ_ARCH}" + no_check);
  CHECK(found[2] == "Dockerfile:6: error: curl https://h.example.invalid/uv/install.sh" + no_check);
  CHECK(found[3] == "Dockerfile:10: error: uv sync without --locked or --frozen may resolve again "
                    "and rewrite uv.lock");
  CHECK(found[4] == "Dockerfile:11: error: uv sync --locked runs after the unlocked uv sync on "
                    "line 10, which may have rewritten uv.lock");
  CHECK(found[5] == "Dockerfile:13: error: pip install ninja is not pinned (write NAME==VERSION, "
                    "or add it to the project's uv.lock)");
}

TEST_CASE("heredoc scripts: a checksum check anywhere in the RUN covers its downloads") {
  CHECK(lines_of("RUN <<EOF\n"
                 "curl -fsSLo /tmp/x https://f.example.invalid/x\n"
                 "echo \"abc  /tmp/x\" | sha256sum -c -\n"
                 "EOF\n")
            .empty());
  CHECK(lines_of("RUN echo \"abc  /tmp/x\" > /tmp/x.sha256 && sh -e <<EOF && sha256sum -c "
                 "/tmp/x.sha256\n"
                 "wget -O /tmp/x https://f.example.invalid/x\n"
                 "EOF\n")
            .empty());
  CHECK(lines_of("RUN <<EOF\n"
                 "wget https://f.example.invalid/x\n"
                 "EOF\n"
                 "RUN sha256sum -c x.sha256\n") ==
        std::vector<std::string>{"Dockerfile:2: error: wget https://f.example.invalid/x "
                                 "downloads without a checksum check (add sha256sum -c in the "
                                 "same RUN)"});
}

TEST_CASE("heredoc scripts: ENV UV_LOCKED=1 and export UV_FROZEN=1 lock uv") {
  CHECK(lines_of("ENV UV_LOCKED=1\nRUN <<EOF\nuv sync\nEOF\n").empty());
  CHECK(lines_of("RUN <<EOF\nexport UV_FROZEN=1\nuv sync\nEOF\nRUN <<EOF\nuv sync\nEOF\n") ==
        std::vector<std::string>{"Dockerfile:6: error: uv sync without --locked or --frozen may "
                                 "resolve again and rewrite uv.lock"});
}

TEST_CASE("heredocs read by other programs than a shell are not checked") {
  CHECK(lines_of("RUN cat <<EOF > /opt/notes.txt\npip install ninja\nEOF\n").empty());
  CHECK(lines_of("RUN python3 <<EOF\nimport os\nEOF\n").empty());
  CHECK(lines_of("RUN <<EOF tee /opt/notes.txt\npip install ninja\nEOF\n").empty());
  CHECK(lines_of("RUN <<EOF sh -e\npip install ninja\nEOF\n") ==
        std::vector<std::string>{"Dockerfile:2: error: pip install ninja is not pinned (write "
                                 "NAME==VERSION, or add it to the project's uv.lock)"});
  CHECK(lines_of("COPY <<EOF /opt/setup.sh\ncurl https://f.example.invalid/x\nEOF\n").empty());
}

TEST_SUITE_END();
