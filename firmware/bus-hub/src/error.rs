//! The hub's one error type.

/// What went wrong (see [`HubError::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HubErrorKind {
    /// Bad options.
    Usage,
    /// QEMU or defmt-print could not be started.
    Spawn,
    /// A socket or file operation failed.
    Io,
    /// The run hit its hard time limit.
    Timeout,
    /// A node broke the lock-step protocol, failed or exited early.
    NodeFailed,
    /// A node's log could not be decoded.
    Decode,
}

/// An error of the hub, with what it was doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubError {
    kind: HubErrorKind,
    detail: String,
}

impl HubError {
    /// An error of `kind`, described by `detail`.
    pub fn new(kind: HubErrorKind, detail: impl Into<String>) -> Self {
        Self {
            kind,
            detail: detail.into(),
        }
    }

    pub(crate) fn io(what: &str, e: std::io::Error) -> Self {
        Self::new(HubErrorKind::Io, format!("{what}: {e}"))
    }

    /// What went wrong.
    pub fn kind(&self) -> HubErrorKind {
        self.kind
    }
}

impl std::fmt::Display for HubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for HubError {}
