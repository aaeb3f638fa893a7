const fs = require('fs');
const path = require('path');

exports.readJson = function readJson(file) {
  const full = path.resolve(file);
  const text = fs.readFileSync(full, 'utf8');
  return JSON.parse(text);
};

module.exports.writeJson = (file, data) => {
  const text = JSON.stringify(data, null, 2);
  fs.writeFileSync(file, text + '\n');
};
