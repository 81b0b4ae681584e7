// Implemented in the manifest module.
