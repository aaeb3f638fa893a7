const { EventEmitter } = require('events');
const { ReconnectingSocket } = require('../lib/reconnecting');

function flakyFactory(failures) {
  let n = 0;
  return () => {
    const s = new EventEmitter();
    s.send = () => {};
    s.close = () => {};
    setImmediate(() => {
      if (n++ < failures) s.emit('close');
      else { s.ready = true; s.emit('open'); }
    });
    return s;
  };
}

test('reconnects after three drops', async () => {
  const rs = new ReconnectingSocket(flakyFactory(3), { baseDelay: 10 });
  const opened = new Promise((resolve) => rs.once('open', resolve));
  rs.open();
  await opened;
  expect(rs.attempt).toBe(0);
  rs.close();
}, 180000);
