// `envlock sample-data`: writes a small deterministic token file in Megatron-LM's indexed dataset
// format (docs/manual/sample-data.md), the data of the resume check.
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "dataset/indexed_dataset.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::sample_data_command {

namespace {

struct SampleDataOptions {
  std::string output;
  std::string name = "sample_text_document";
  dataset::SampleSpec spec;
};

Result<ExitCode> run_sample_data(const SampleDataOptions& options) {
  ENVLOCK_TRY_ASSIGN(const dataset::IndexedDataset sample, dataset::sample_dataset(options.spec));
  std::error_code error;
  std::filesystem::create_directories(options.output, error);
  if (error) {
    return env_error("-o " + options.output + ": " + error.message());
  }
  const std::filesystem::path prefix = std::filesystem::path(options.output) / options.name;
  ENVLOCK_TRY(dataset::write_dataset(prefix, sample));
  std::cout << prefix.string() << ": " << sample.tokens.size() << " tokens ("
            << dataset::to_string(sample.type) << "), " << sample.sequence_lengths.size()
            << " documents\n";
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto options = std::make_shared<SampleDataOptions>();
  app.add_option("-o,--output", options->output, "The folder to write PREFIX.bin and PREFIX.idx to")
      ->required()
      ->type_name("DIR");
  app.add_option("--name", options->name, "The file name prefix (default: sample_text_document)")
      ->type_name("PREFIX");
  app.add_option("--tokens", options->spec.tokens, "About this many tokens (default: 262144)")
      ->type_name("N");
  app.add_option("--vocab", options->spec.vocab, "Token ids are below this (default: 4096)")
      ->type_name("N");
  app.add_option("--seed", options->spec.seed, "The generator's seed (default: 1234)")
      ->type_name("N");
  cmdline::set_footer(app, "envlock sample-data -o data --tokens 65536",
                      "docs/manual/sample-data.md");
  return [options] { return run_sample_data(*options); };
}

} // namespace

CommandSpec spec() {
  return {"sample-data", "Write a small deterministic token file (Megatron indexed dataset)",
          setup};
}

} // namespace envlock::cli::sample_data_command
