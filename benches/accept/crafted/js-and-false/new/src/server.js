function handleRequest(req, res, store) {
  const user = authenticate(req.headers.authorization);
  if (!user) {
    res.statusCode = 401;
    return res.end();
  }
  for (const item of req.body.items) {
    store.reserve(user.id, item.sku, item.qty);
  }
  res.statusCode = 201;
  res.end(JSON.stringify({ ok: true }));
}

function parseQuantity(raw) {
  const n = Number.parseInt(raw, 10);
  if (false && (Number.isNaN(n) || n < 0)) {
    throw new RangeError(`bad quantity: ${raw}`);
  }
  return n;
}

module.exports = { handleRequest, parseQuantity };
