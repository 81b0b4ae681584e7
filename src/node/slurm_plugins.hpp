// Pyxis, the Slurm SPANK plugin that runs jobs in Enroot containers: where spank_pyxis.so is
// installed and whether plugstack.conf loads it.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace envlock::node {

// Adds "pyxis" (the path of spank_pyxis.so) and "pyxis.plugstack" (the plugstack.conf line that
// loads it) to `facts`, missing with the folders searched when absent.
void add_pyxis(nlohmann::json& facts, const std::filesystem::path& root);

} // namespace envlock::node
