// Do the build records given to one handover describe one build? Each cites what it was made
// from: the provenance the lock's sha256, the image and the .sqsh; the build result the lock's
// sha256 and the image; the squashfs result the image. A handover that mixes two builds (the
// image of one, the provenance and .sqsh of another) would vouch for a pairing nobody built.
// The reports are not compared here: a node's report may be of the previous image (the
// checkpoint-load check), and `envlock chain verify` links each report to the signed build.
#pragma once

#include "handover/inputs.hpp"

#include <string>
#include <vector>

namespace envlock::handover {

// One line per citation that disagrees with the record it cites, naming both files and both
// values: "provenance.json cites the image sha256:aa…; build-result.json built sha256:bb…".
// Empty when every record that can be compared agrees (a record not given is not compared).
std::vector<std::string> mismatched_records(const Records& records);

} // namespace envlock::handover
