// Validates CycloneDX 1.6 JSON files with CycloneDX's own library (its strict JSON schema
// validator): `node tools/cyclonedx/validate.js FILE...`. Prints "FILE: valid" or the schema's
// errors for each; exits 1 when one is invalid, 3 when the validator cannot run.
'use strict';
const fs = require('fs');
const { Spec, Validation } = require('@cyclonedx/cyclonedx-library');

async function main(files) {
  const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
  let invalid = 0;
  for (const file of files) {
    const errors = await validator.validate(fs.readFileSync(file, 'utf8'));
    if (errors === null) {
      console.log(`${file}: valid`);
    } else {
      invalid += 1;
      console.log(`${file}: invalid: ${JSON.stringify(errors)}`);
    }
  }
  return invalid === 0 ? 0 : 1;
}

if (process.argv.length < 3) {
  console.error('usage: node validate.js FILE...');
  process.exit(2);
}
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`validate.js: ${error.message}`);
    process.exit(3);
  });
