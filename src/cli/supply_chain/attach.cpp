#include "cli/supply_chain/attach.hpp"

#include "attest/push.hpp"

#include <iostream>

namespace envlock::cli {

namespace {

std::string where_listed(const attest::Pushed& pushed) {
  if (pushed.listing == attest::Listing::referrers_api) {
    return "listed by the referrers API";
  }
  return "listed in tag " + pushed.tag + " (the registry has no referrers API)";
}

} // namespace

Status attach_files(oci::RegistryClient& client, const oci::ImageRef& image,
                    const std::vector<attest::AttestationFile>& files) {
  for (const auto& file : files) {
    ENVLOCK_TRY_ASSIGN(const attest::Pushed pushed, attest::push_attestation(client, image, file));
    std::cout << "pushed " << pushed.title << " (" << attest::to_string(pushed.kind) << ") as "
              << image.name() << "@" << pushed.digest << ", " << where_listed(pushed) << "\n";
  }
  return {};
}

} // namespace envlock::cli
