function formatTotal(total) {
  return '$' + total;
}

module.exports = { formatTotal };
