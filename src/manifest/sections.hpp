// The section readers of schema version 1: each takes the field of one top-level key and returns
// its typed value or the first error in it.
#pragma once

#include "manifest/manifest.hpp"
#include "manifest/reader.hpp"
#include "util/result.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::manifest {

// image: {name, tag, repository}
Result<ImageTarget> read_image(const Reader& reader, const Field& field);
// base: {image, platform}
Result<Base> read_base(const Reader& reader, const Field& field);
// sources: {megatron: {git, ref}}
Result<std::map<std::string, GitSource>> read_sources(const Reader& reader, const Field& field);
// python: {project, uv: {version, sha256}, sync_args}
Result<Python> read_python(const Reader& reader, const Field& field);

// build: {args, recipe, context}
Result<Build> read_build(const Reader& reader, const Field& field);
// expect: {cuda, nccl, pytorch, python, gpus, nccl_busbw_gbps, host, resume, links}
Result<Expect> read_expect(const Reader& reader, const Field& field);
// enroot: {squash_options, source_date_epoch, locale}
Result<Enroot> read_enroot(const Reader& reader, const Field& field);
// training: {config, tokenizer, data, checkpoint_dir}
Result<Training> read_training(const Reader& reader, const Field& field);
// launch: {command, directories}
Result<Launch> read_launch(const Reader& reader, const Field& field);

} // namespace envlock::manifest
