//! `image.variants`: the narrower copies of one stored image (480, 960 and 1440 px wide,
//! those narrower than the original), stored beside it and recorded in `image_variants`
//! (`domain::infra::variants::make`, through the `media` crate's decoder and its permits).
//! Keyed by the image's key: asked for twice, made once; a run after the copies exist
//! answers them. A missing source, or one that is not an image, fails for good at once.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;

use domain::infra::objects::Objects;
use domain::infra::variants::{self, NotMade};

use crate::enqueue::{Enqueue, Enqueued};
use crate::job::{Backoff, Job, JobContext, JobError};

const NOT_MADE: &str =
    "As versões reduzidas da imagem não puderam ser feitas; nova tentativa em breve.";
const NOT_AN_IMAGE: &str = "O arquivo não é uma imagem que possamos reduzir.";
const MISSING: &str = "A imagem não foi encontrada.";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageVariants {
    /// The stored image's object key.
    pub key: String,
}

impl ImageVariants {
    /// Enqueues on the transaction that records the image, keyed by its key.
    pub async fn enqueue(
        tx: &mut PgConnection,
        station_id: i64,
        key: &str,
    ) -> sqlx::Result<Enqueued> {
        Enqueue::new(Self {
            key: key.to_owned(),
        })
        .owner(station_id, None)
        .about("image", key)
        .idempotency_key(format!("image-variants:{key}"))
        .push(tx)
        .await
    }
}

impl Job for ImageVariants {
    const QUEUE: &'static str = "image.variants";
    const MAX_ATTEMPTS: i32 = 5;
    /// Each holds a decoder permit (two per process) for a second or so.
    const CONCURRENCY: usize = 2;
    const TIMEOUT: Duration = Duration::from_secs(120);
    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(600),
    };

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let objects = Objects::from_config(&ctx.services.config)
            .map_err(|err| JobError::retry(NOT_MADE, err))?;
        match variants::make(ctx.db(), &objects, &media::images::ImageCrate, &self.key).await {
            Ok(made) => Ok(json!({
                "new": made.new,
                "widths": made.variants.iter().map(|v| v.width).collect::<Vec<_>>(),
            })),
            Err(err @ (NotMade::NotAnImage(_) | NotMade::Private(_))) => {
                Err(JobError::permanent(NOT_AN_IMAGE, err))
            }
            Err(err @ NotMade::Missing(_)) => Err(JobError::permanent(MISSING, err)),
            Err(NotMade::Failed(err)) => Err(JobError::retry(NOT_MADE, err)),
        }
    }
}
