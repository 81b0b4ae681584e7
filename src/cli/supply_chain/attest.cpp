// `envlock attest`: the image's attestations in its registry, found by its digest: `push` (signed
// provenance, SBOM, node verdicts and reports as OCI artifacts whose subject is the image),
// `list`, `fetch`, and `verdict` (a node's report as a signed in-toto Test Result statement)
// (docs/manual/attest.md).
#include "attest/list.hpp"
#include "cli/commands.hpp"
#include "cli/registry_options.hpp"
#include "cli/supply_chain/attach.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/report.hpp"
#include "provenance/build_record.hpp"
#include "provenance/dsse.hpp"
#include "provenance/key_files.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "provenance/test_result.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <chrono>
#include <iostream>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace envlock::cli::attest_command {

namespace {

namespace fs = std::filesystem;
namespace pv = envlock::provenance;

constexpr std::uintmax_t k_attest_file_limit = std::uintmax_t{64} << 20U;
constexpr const char* k_build_result = "build-result.json";

struct PushArgs {
  std::string image;
  std::vector<std::string> files;
  oci::RegistryOptions registry;
};

// --image, else the image `envlock build --push` recorded in build-result.json here.
Result<oci::ImageRef> image_to_attest(const PushArgs& args) {
  if (!args.image.empty()) {
    return oci::parse_image_ref(args.image);
  }
  std::error_code ec;
  if (!fs::exists(k_build_result, ec)) {
    return input_error(std::string("no --image, and no ") + k_build_result +
                       " here: name the image with --image REF@DIGEST");
  }
  ENVLOCK_TRY_ASSIGN(const pv::BuildRecord build, pv::read_build_record(k_build_result));
  if (!build.pushed) {
    return input_error(std::string(k_build_result) + ": the image was not pushed (" + build.digest +
                       " is a local image id); run `envlock build --push`, or " +
                       "name the image with --image REF@DIGEST");
  }
  std::cerr << "envlock: the image " << build.repository << "@" << build.digest << " (from "
            << k_build_result << ")\n";
  return oci::parse_image_ref(build.repository + "@" + build.digest);
}

Result<ExitCode> run_push(const PushArgs& args) {
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, image_to_attest(args));
  std::vector<attest::AttestationFile> files;
  for (const auto& path : args.files) {
    ENVLOCK_TRY_ASSIGN(std::string bytes, util::read_file_limited(path, k_attest_file_limit));
    ENVLOCK_TRY_ASSIGN(attest::AttestationFile file,
                       attest::classify(fs::path(path).filename().string(), std::move(bytes)));
    files.push_back(std::move(file));
  }
  oci::RegistryClient client(args.registry);
  ENVLOCK_TRY(attach_files(client, image, files));
  return ExitCode::ok;
}

struct ListArgs {
  std::string image;
  std::string type;
  std::string format;
  std::string output;
  std::string dir;
  oci::RegistryOptions registry;
};

Result<std::optional<attest::Kind>> kind_filter(const std::string& type) {
  if (type.empty()) {
    return std::optional<attest::Kind>();
  }
  ENVLOCK_TRY_ASSIGN(const attest::Kind kind, attest::parse_kind(type));
  return std::optional<attest::Kind>(kind);
}

std::string via_text(const attest::AttestationList& list) {
  return list.via == attest::Listing::referrers_api ? std::string("the referrers API")
                                                    : "tag " + list.tag;
}

Result<ExitCode> run_list(const ListArgs& args) {
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
  ENVLOCK_TRY_ASSIGN(const auto kind, kind_filter(args.type));
  oci::RegistryClient client(args.registry);
  ENVLOCK_TRY_ASSIGN(const attest::AttestationList list,
                     attest::list_attestations(client, image, kind));
  if (args.format == "json") {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& listed : list.referrers) {
      items.push_back({{"digest", listed.digest},
                       {"artifactType", listed.artifact_type},
                       {"type", listed.kind ? attest::to_string(*listed.kind) : nullptr},
                       {"predicateType", listed.predicate_type},
                       {"size", listed.size}});
    }
    const nlohmann::json doc = {
        {"image", image.to_string()},
        {"via", list.via == attest::Listing::referrers_api ? "referrers-api" : "tag-schema"},
        {"referrers", items}};
    ENVLOCK_TRY(cmdline::write_output(args.output, util::canonical_json(doc)));
    return ExitCode::ok;
  }
  std::string text = image.to_string() + ": " + std::to_string(list.referrers.size()) +
                     (list.referrers.size() == 1 ? " attestation" : " attestations") + " (from " +
                     via_text(list) + ")\n";
  for (const auto& listed : list.referrers) {
    text += "  " + std::string(listed.kind ? attest::to_string(*listed.kind) : "other") + "  " +
            listed.digest + "  " + listed.artifact_type +
            (listed.predicate_type.empty() ? "" : "  " + listed.predicate_type) + "\n";
  }
  ENVLOCK_TRY(cmdline::write_output(args.output, text));
  return ExitCode::ok;
}

// A file name for a fetched attestation: its title when that is a plain name, else KIND-HEX.json.
std::string file_name_for(const attest::Fetched& fetched) {
  const std::string& title = fetched.title;
  const bool plain = !title.empty() && title != "." && title != ".." &&
                     title.find('/') == std::string::npos && title.front() != '.';
  if (plain) {
    return title;
  }
  const std::string kind = fetched.listed.kind ? attest::to_string(*fetched.listed.kind) : "other";
  return kind + "-" + fetched.listed.digest.substr(7, 12) + ".json";
}

Result<ExitCode> run_fetch(const ListArgs& args) {
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
  ENVLOCK_TRY_ASSIGN(const auto kind, kind_filter(args.type));
  if (args.output.empty() == args.dir.empty()) {
    return input_error("give one of -o FILE (exactly one attestation) and --dir DIR (all)");
  }
  oci::RegistryClient client(args.registry);
  ENVLOCK_TRY_ASSIGN(const attest::AttestationList list,
                     attest::list_attestations(client, image, kind));
  const std::string what = args.type.empty() ? "attestation" : args.type + " attestation";
  if (list.referrers.empty()) {
    return check_failed(image.to_string() + ": no " + what + " (looked in " + via_text(list) + ")");
  }
  if (!args.output.empty()) {
    if (list.referrers.size() != 1) {
      return input_error(image.to_string() + ": " + std::to_string(list.referrers.size()) + " " +
                         what + "s; -o takes one (name --type, or use --dir)");
    }
    ENVLOCK_TRY_ASSIGN(const attest::Fetched fetched,
                       attest::fetch_attestation(client, image, list.referrers.front()));
    ENVLOCK_TRY(cmdline::write_output(args.output, fetched.bytes));
    return ExitCode::ok;
  }
  std::error_code ec;
  fs::create_directories(args.dir, ec);
  std::set<std::string> written;
  for (const auto& listed : list.referrers) {
    ENVLOCK_TRY_ASSIGN(const attest::Fetched fetched,
                       attest::fetch_attestation(client, image, listed));
    std::string name = file_name_for(fetched);
    if (!written.insert(name).second) {
      name = listed.digest.substr(7, 12) + "-" + name;
      written.insert(name);
    }
    ENVLOCK_TRY(util::write_file_atomic(fs::path(args.dir) / name, fetched.bytes));
    std::cout << "wrote " << (fs::path(args.dir) / name).string() << " ("
              << (listed.kind ? attest::to_string(*listed.kind) : "other") << ", " << listed.digest
              << ")\n";
  }
  return ExitCode::ok;
}

struct VerdictArgs {
  std::string report;
  std::string key;
  std::string output;
};

constexpr const char* k_node_key_path = "/etc/envlock/node.key";

std::string this_host() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

// A node's key is its own: a file of the signer's that no one else can read or write.
Status check_node_key_private(const fs::path& key_path) {
  struct stat st {};
  if (::stat(key_path.c_str(), &st) != 0) {
    return {}; // read_key names the file and the error
  }
  if (st.st_uid != ::geteuid()) {
    return input_error(key_path.string() + ": owned by uid " + std::to_string(st.st_uid) +
                       ", not by the signer (uid " + std::to_string(::geteuid()) +
                       "): its owner could swap it, so it is no node's own key");
  }
  if ((st.st_mode & 077U) != 0) {
    std::string mode = "0000"; // the permission bits in octal
    unsigned bits = st.st_mode & 07777U;
    for (std::size_t i = mode.size(); i-- > 0; bits >>= 3U) {
      mode[i] = static_cast<char>('0' + (bits & 7U));
    }
    return input_error(key_path.string() + ": mode " + mode +
                       ": others can read or write it, so it is no node's own key "
                       "(chmod 600, or envlock keygen --node --force)");
  }
  return {};
}

Result<ExitCode> run_verdict(const VerdictArgs& args) {
  const fs::path key_path = args.key.empty() ? fs::path(k_node_key_path) : fs::path(args.key);
  ENVLOCK_TRY(check_node_key_private(key_path));
  ENVLOCK_TRY_ASSIGN(const pv::Key key, pv::read_key(key_path, pv::KeyHalf::private_key));
  ENVLOCK_TRY_ASSIGN(const formats::Report report, formats::read_report(args.report));
  const std::string host = this_host();
  if (report.run.hostname != host) {
    return input_error(args.report + ": made on " +
                       (report.run.hostname.empty() ? "no named host" : report.run.hostname) +
                       ", and this is " + host + ": a node signs only the report of its own run");
  }
  ENVLOCK_TRY_ASSIGN(
      const pv::VerdictRun run,
      pv::verdict_run(report, args.report, util::rfc3339_utc(std::chrono::system_clock::now())));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json statement,
                     pv::test_result_statement(report, run, args.report));
  ENVLOCK_TRY_ASSIGN(const pv::Envelope envelope,
                     pv::sign_statement(util::canonical_json(statement), key, args.report));
  ENVLOCK_TRY(cmdline::write_output(args.output, util::canonical_json(pv::to_json(envelope))));
  std::cerr << "envlock: " << args.report << ": "
            << statement["predicate"]["result"].get<std::string>() << " on node " << run.node
            << " (" << pv::to_string(run.mode) << "), signed by key " << key.key_id() << "\n";
  return ExitCode::ok;
}

Runner setup_push(CLI::App& app) {
  auto args = std::make_shared<PushArgs>();
  app.add_option("--image", args->image,
                 "The image the attestations are about, by digest (default: the one "
                 "build-result.json here records)")
      ->type_name("REF@DIGEST");
  app.add_option("files", args->files,
                 "Signed provenance (DSSE), SBOM (CycloneDX), signed node verdicts, reports")
      ->required()
      ->type_name("FILE");
  add_registry_options(app, args->registry);
  cmdline::set_footer(app,
                      "envlock attest push --image REG/REPO@sha256:... provenance.dsse.json "
                      "sbom.cdx.json",
                      "docs/manual/attest.md");
  return [args] { return run_push(*args); };
}

void add_list_options(CLI::App& app, ListArgs& args) {
  app.add_option("image", args.image, "The image, by digest")->required()->type_name("REF@DIGEST");
  app.add_option("--type", args.type, "Only this kind: provenance, sbom, node, report")
      ->type_name("TYPE");
  add_registry_options(app, args.registry);
}

Runner setup_list(CLI::App& app) {
  auto args = std::make_shared<ListArgs>();
  add_list_options(app, *args);
  cmdline::add_format_option(app, args->format, {"text", "json"}, "default: text");
  cmdline::add_output_option(app, args->output,
                             "Write the list here; - for standard output (default)");
  cmdline::set_footer(app, "envlock attest list REG/REPO@sha256:... --type sbom",
                      "docs/manual/attest.md");
  return [args] { return run_list(*args); };
}

Runner setup_fetch(CLI::App& app) {
  auto args = std::make_shared<ListArgs>();
  add_list_options(app, *args);
  cmdline::add_output_option(app, args->output,
                             "Write the one attestation here (- for standard output)");
  app.add_option("--dir", args->dir, "Write every attestation into this folder")->type_name("DIR");
  cmdline::set_footer(app,
                      "envlock attest fetch REG/REPO@sha256:... --type provenance -o "
                      "provenance.dsse.json",
                      "docs/manual/attest.md");
  return [args] { return run_fetch(*args); };
}

Runner setup_verdict(CLI::App& app) {
  auto args = std::make_shared<VerdictArgs>();
  app.add_option("report", args->report, "A verification report (envlock-verify --format json)")
      ->required()
      ->type_name("REPORT");
  app.add_option("--key", args->key,
                 "The node's own private key, from envlock keygen --node (default: "
                 "/etc/envlock/node.key)")
      ->type_name("FILE");
  cmdline::add_output_option(app, args->output,
                             "Write the signed verdict here; - for standard output (default)");
  cmdline::set_footer(app, "envlock attest verdict report.json -o node.dsse.json",
                      "docs/manual/attest.md");
  return [args] { return run_verdict(*args); };
}

} // namespace

CommandSpec spec() {
  return {
      "attest",
      "Attach signed provenance, SBOM and node verdicts to an image in its registry",
      nullptr,
      {{"push", "Push attestation files as artifacts of the image (OCI referrers)", setup_push},
       {"list", "List the image's attestations", setup_list},
       {"fetch", "Fetch the image's attestations", setup_fetch},
       {"verdict", "Write a node's report as a signed in-toto Test Result statement",
        setup_verdict}},
  };
}

} // namespace envlock::cli::attest_command
