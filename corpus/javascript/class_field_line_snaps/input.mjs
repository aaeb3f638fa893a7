const api = {
  baseUrl: '/api',
  async get(path) {
    const res = await fetch(this.baseUrl + path);
    return res.json();
  },
  post: async function (path, body) {
    const res = await fetch(this.baseUrl + path, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    return res.json();
  },
};

class Widget {
  count = 0;

  handleClick = (event) => {
    event.preventDefault();
    this.count += 1;
  };

  render() {
    return `<button>${this.count}</button>`;
  }
}

class Badge {
  render() {
    return '<span class="badge"></span>';
  }
}

export { api, Widget, Badge };
