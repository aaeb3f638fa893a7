use std::time::Duration;

pub struct Client {
    base: String,
    retries: u32,
}

impl Client {
    pub async fn fetch(&self, path: &str) -> Result<String, String> {
        let url = format!("{}/{}", self.base, path);
        let mut attempt = 0;
        loop {
            attempt += 1;
            match get(&url).await {
                Ok(body) => return Ok(body),
                Err(e) if attempt < self.retries => {
                    sleep(Duration::from_millis(50)).await;
                    drop(e);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

async fn get(url: &str) -> Result<String, String> {
    if url.is_empty() {
        return Err("empty url".to_string());
    }
    Ok(format!("body of {url}"))
}

async fn sleep(_d: Duration) {}
