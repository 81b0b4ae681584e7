// Implemented in the oci module.
