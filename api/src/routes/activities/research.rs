//! Quizzes and surveys (spec 001 types 6 to 12; docs/api-activities.md "Quizzes and
//! surveys"): the research without its key, answers saved one by one (a quiz's judged),
//! file answers, the submissions with their credit, the poll's results and the quiz list.

use app::activities::participation;
use app::activities::research::{self as answers, Answering, FileSent};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use domain::activities::ActivityType;
use domain::activities::participation::Refused;
use domain::activities::research::{self, Form, Given, Submission};
use domain::infra::uploads::{self, FILE_INVALID};
use jobs::JobOutbox;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::actions::ActivityCard;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Multipart, Path};
use crate::member::{Member, NOT_AUTHORIZED};
use crate::state::AppState;
use crate::upload_form;

/// The file answer's limit plus room for the multipart envelope.
const FILE_BODY_LIMIT: usize = research::MAX_FILE_BYTES + 64 * 1024;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchOption)]
pub struct Choice {
    pub id: i64,
    pub label: String,
    pub color: Option<String>,
    #[serde(rename = "textColor")]
    pub text_color: Option<String>,
    pub image: Option<String>,
}

impl From<research::Choice> for Choice {
    fn from(choice: research::Choice) -> Self {
        let research::Choice {
            id,
            label,
            color,
            text_color,
            image,
        } = choice;
        Self {
            id,
            label,
            color,
            text_color,
            image,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchQuestion)]
pub struct Question {
    pub id: i64,
    pub question: String,
    /// 1 single choice, 2 multiple choice, 3 free text, 4 single choice with "other",
    /// 5 multiple choice with "other", 6 video answer, 7 file answer.
    pub type_id: i16,
    pub required: bool,
    pub color: Option<String>,
    #[serde(rename = "textColor")]
    pub text_color: Option<String>,
    pub image: Option<String>,
    pub options: Vec<Choice>,
}

impl From<research::Question> for Question {
    fn from(question: research::Question) -> Self {
        let research::Question {
            id,
            question,
            type_id,
            required,
            color,
            text_color,
            image,
            options,
        } = question;
        Self {
            id,
            question,
            type_id,
            required,
            color,
            text_color,
            image,
            options: options.into_iter().map(Choice::from).collect(),
        }
    }
}

/// Whether a quiz answer is right, said once the member answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Verdict {
    pub correct: bool,
    pub message: String,
    /// Only once the answer is right.
    pub explanation: Option<String>,
}

impl From<research::Verdict> for Verdict {
    fn from(verdict: research::Verdict) -> Self {
        let research::Verdict {
            correct,
            message,
            explanation,
        } = verdict;
        Self {
            correct,
            message,
            explanation,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AnswerFile {
    pub name: String,
}

impl From<research::AnswerFile> for AnswerFile {
    fn from(file: research::AnswerFile) -> Self {
        let research::AnswerFile { name } = file;
        Self { name }
    }
}

/// One saved answer of the member's open attempt.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchAnswer)]
pub struct AnswerState {
    pub attempt_id: i64,
    pub question_id: i64,
    pub options: Vec<i64>,
    pub text: Option<String>,
    pub other: Option<String>,
    pub file: Option<AnswerFile>,
    /// A quiz question's verdict on the latest answer; null for surveys.
    pub verdict: Option<Verdict>,
    /// The quiz options judged wrong so far.
    pub tried: Vec<i64>,
}

impl From<research::AnswerState> for AnswerState {
    fn from(answer: research::AnswerState) -> Self {
        let research::AnswerState {
            attempt_id,
            question_id,
            options,
            text,
            other,
            file,
            verdict,
            tried,
        } = answer;
        Self {
            attempt_id,
            question_id,
            options,
            text,
            other,
            file: file.map(AnswerFile::from),
            verdict: verdict.map(Verdict::from),
            tried,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuizFeedback {
    /// Sanitised HTML.
    pub feedback: String,
    pub feedback_lottie_id: Option<i64>,
}

impl From<research::QuizFeedback> for QuizFeedback {
    fn from(feedback: research::QuizFeedback) -> Self {
        let research::QuizFeedback {
            feedback,
            feedback_lottie_id,
        } = feedback;
        Self {
            feedback,
            feedback_lottie_id,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct QuestionResult {
    pub question_id: i64,
    /// Null for a question without a right answer.
    pub correct: Option<bool>,
}

impl From<research::QuestionResult> for QuestionResult {
    fn from(result: research::QuestionResult) -> Self {
        let research::QuestionResult {
            question_id,
            correct,
        } = result;
        Self {
            question_id,
            correct,
        }
    }
}

/// A submitted attempt's result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResearchResult {
    /// False when the call answered an earlier submission of the attempt (200).
    pub recorded: bool,
    pub attempt_id: i64,
    pub participation_id: Option<i64>,
    pub action_id: i64,
    pub research_id: i64,
    pub question_count: i32,
    pub answered_count: i32,
    pub correct_count: i32,
    /// Right answers over questions (a quiz counts the first try); null without a key.
    pub correct_answer_percentage: Option<f64>,
    pub answer_percentage: f64,
    /// Quizzes only.
    pub won: Option<bool>,
    /// Whether the participation earns the activity's points (a lost quiz does not).
    pub earned: bool,
    pub points: i32,
    /// `points` + `additional_cashback`.
    pub cashback: i64,
    /// The `points.credit` job the submission queued; set by the caller that queued it.
    pub job_id: Option<String>,
    pub feedback: Option<QuizFeedback>,
    pub questions: Vec<QuestionResult>,
}

impl From<research::ResearchResult> for ResearchResult {
    fn from(result: research::ResearchResult) -> Self {
        let research::ResearchResult {
            recorded,
            attempt_id,
            participation_id,
            action_id,
            research_id,
            question_count,
            answered_count,
            correct_count,
            correct_answer_percentage,
            answer_percentage,
            won,
            earned,
            points,
            cashback,
            job_id,
            feedback,
            questions,
        } = result;
        Self {
            recorded,
            attempt_id,
            participation_id,
            action_id,
            research_id,
            question_count,
            answered_count,
            correct_count,
            correct_answer_percentage,
            answer_percentage,
            won,
            earned,
            points,
            cashback,
            job_id,
            feedback: feedback.map(QuizFeedback::from),
            questions: questions.into_iter().map(QuestionResult::from).collect(),
        }
    }
}

/// A research as the member answers it: no answer key.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Research {
    pub id: i64,
    pub action_id: i64,
    /// The activity's type: 6 quiz, 7 to 12 surveys.
    #[schema(value_type = i16)]
    pub type_id: ActivityType,
    pub name: String,
    pub synopsis: String,
    pub points: i32,
    pub cashback: i64,
    /// `contact` for a contact survey (type 7), else `user`.
    pub author: String,
    pub questions: Vec<Question>,
    /// The member's open attempt, if any.
    pub attempt_id: Option<i64>,
    pub answers: Vec<AnswerState>,
    /// The member's latest submission.
    pub last_result: Option<ResearchResult>,
}

impl From<research::Research> for Research {
    fn from(loaded: research::Research) -> Self {
        let research::Research {
            id,
            action_id,
            type_id,
            name,
            synopsis,
            points,
            cashback,
            author,
            questions,
            attempt_id,
            answers,
            last_result,
        } = loaded;
        Self {
            id,
            action_id,
            type_id,
            name,
            synopsis,
            points,
            cashback,
            author,
            questions: questions.into_iter().map(Question::from).collect(),
            attempt_id,
            answers: answers.into_iter().map(AnswerState::from).collect(),
            last_result: last_result.map(ResearchResult::from),
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OptionCount {
    pub id: i64,
    pub label: String,
    pub count: i64,
}

impl From<research::OptionCount> for OptionCount {
    fn from(option: research::OptionCount) -> Self {
        let research::OptionCount { id, label, count } = option;
        Self { id, label, count }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuestionCounts {
    pub id: i64,
    pub question: String,
    pub options: Vec<OptionCount>,
}

impl From<research::QuestionCounts> for QuestionCounts {
    fn from(counts: research::QuestionCounts) -> Self {
        let research::QuestionCounts {
            id,
            question,
            options,
        } = counts;
        Self {
            id,
            question,
            options: options.into_iter().map(OptionCount::from).collect(),
        }
    }
}

/// A poll's results (type 10): how many members chose each option, each member's latest
/// submission counting (a vote sent again replaces the earlier one).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PollResults {
    pub research_id: i64,
    /// Members who voted.
    pub respondents: i64,
    pub questions: Vec<QuestionCounts>,
}

impl From<research::PollResults> for PollResults {
    fn from(results: research::PollResults) -> Self {
        let research::PollResults {
            research_id,
            respondents,
            questions,
        } = results;
        Self {
            research_id,
            respondents,
            questions: questions.into_iter().map(QuestionCounts::from).collect(),
        }
    }
}

/// A quiz in the quiz list (`/homepage/quizzes`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuizCard {
    #[serde(flatten)]
    pub card: ActivityCard,
    pub research_id: i64,
    /// Sanitised HTML.
    pub description: String,
    /// When it closes: `participationEnd`.
    pub expiration: Option<DateTime<Utc>>,
    pub question_count: i64,
}

impl From<research::QuizCard> for QuizCard {
    fn from(quiz: research::QuizCard) -> Self {
        let research::QuizCard {
            card,
            research_id,
            description,
            expiration,
            question_count,
        } = quiz;
        Self {
            card: card.into(),
            research_id,
            description,
            expiration,
            question_count,
        }
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_research))
        .routes(routes!(save_answer))
        .routes(routes!(save_file_answer).layer(DefaultBodyLimit::max(FILE_BODY_LIMIT)))
        .routes(routes!(save_uploaded_file_answer))
        .routes(routes!(answer_quiz))
        .routes(routes!(answer_survey))
        .routes(routes!(poll_results))
        .routes(routes!(quizzes))
}

/// The research (quiz or survey) as the caller answers it
///
/// Its questions and options without the answer key, the caller's open attempt's answers
/// (to resume) and latest result.
#[utoipa::path(
    get,
    path = "/research/{id}",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The research")),
    responses(
        (status = 200, description = "The research", body = Research),
        (status = 404, description = "Unknown, unpublished or another station's", body = ErrorMessage),
    )
)]
async fn get_research(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Research>> {
    let mut conn = state.db.acquire().await?;
    let research = research::load(&mut conn, member.user(), member.station(), id)
        .await?
        .ok_or(Refused::Unavailable)?;
    Ok(Json(research.into()))
}

/// One answer: the options chosen, a free text, an "other" text, as the question takes.
#[derive(Debug, Default, Deserialize, ToSchema)]
struct AnswerRequest {
    #[serde(default)]
    options: Vec<i64>,
    text: Option<String>,
    other: Option<String>,
}

impl From<AnswerRequest> for Given {
    fn from(answer: AnswerRequest) -> Self {
        Self {
            options: answer.options,
            text: answer.text,
            other: answer.other,
        }
    }
}

/// Saves the caller's answer to one question
///
/// In the open attempt, opened through the participation rules. A quiz (type 6) answer
/// comes back judged; a right one is locked. Survey answers may be changed until the
/// attempt is submitted.
#[utoipa::path(
    put,
    path = "/research/{id}/answers/{question_id}",
    tag = "activities",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The research"),
        ("question_id" = i64, Path, description = "One of its questions"),
    ),
    request_body = AnswerRequest,
    responses(
        (status = 200, description = "Saved (and judged, for a quiz)", body = AnswerState),
        (status = 404, description = "Unknown research or question, unpublished or another station's", body = ErrorMessage),
        (status = 409, description = "A quiz question already answered right", body = ErrorMessage),
        (status = 422, description = "The answer does not fit the question; the participation rules", body = Messages),
    )
)]
async fn save_answer(
    State(state): State<AppState>,
    member: Member,
    Path((id, question_id)): Path<(i64, i64)>,
    Json(answer): Json<AnswerRequest>,
) -> ApiResult<Json<AnswerState>> {
    let saved = answers::save_answer(
        &state.db,
        answering(member, id, question_id),
        &answer.into(),
        Utc::now(),
    )
    .await?;
    Ok(Json(saved.into()))
}

/// The multipart form of a file answer.
#[allow(dead_code)]
#[derive(ToSchema)]
struct FileAnswerForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Saves a video or file answer (question types 6 and 7)
///
/// Multipart, the file in `file`: a video (mp4, mov, webm) for a video question, a pdf,
/// doc, docx, zip, jpeg, png or gif for a file question, up to 10 MB, known by its
/// content. Stored privately; a file it replaces is deleted.
#[utoipa::path(
    post,
    path = "/research/{id}/answers/{question_id}/file",
    tag = "activities",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The research"),
        ("question_id" = i64, Path, description = "A video or file question of it"),
    ),
    request_body(content = FileAnswerForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Saved", body = AnswerState),
        (status = 404, description = "Unknown research or question, unpublished or another station's", body = ErrorMessage),
        (status = 422, description = "Too large or not of an accepted kind; the participation rules", body = Messages),
    )
)]
async fn save_file_answer(
    State(state): State<AppState>,
    member: Member,
    Path((id, question_id)): Path<(i64, i64)>,
    Multipart(multipart): Multipart,
) -> ApiResult<Json<AnswerState>> {
    // The rules first, so a member who may not answer stores nothing.
    let question =
        answers::file_question(&state.db, answering(member, id, question_id), Utc::now()).await?;
    let (bytes, name) = upload_form::read_file(multipart, research::MAX_FILE_BYTES).await?;
    let name = name.chars().take(200).collect();
    let kind = uploads::kind_of(&bytes)
        .filter(|kind| question.accepts(*kind))
        .ok_or_else(|| ApiError::invalid(FILE_INVALID))?;
    let sent = FileSent {
        bytes,
        name,
        extension: kind.extension(),
    };
    let answer = answers::save_file(
        &state.db,
        &state.objects,
        answering(member, id, question_id),
        sent,
        Utc::now(),
    )
    .await?;
    Ok(Json(answer.into()))
}

/// An upload made before, named as `files/actions` or `upload-image-to-s3` answered it.
#[derive(Debug, Deserialize, ToSchema)]
struct UploadedFileAnswer {
    /// The `path` of `POST /files/actions`, or the `url` of `POST /upload-image-to-s3`.
    path: String,
}

/// Saves an upload made before as a file answer (question type 7)
///
/// The caller's own upload (`POST /files/actions`, `POST /upload-image-to-s3`) becomes the
/// answer and is attached to it, so the cleanup keeps it; a file it replaces is deleted. An
/// upload is attached to one answer only.
#[utoipa::path(
    put,
    path = "/research/{id}/answers/{question_id}/file",
    tag = "activities",
    security(("member" = [])),
    params(
        ("id" = i64, Path, description = "The research"),
        ("question_id" = i64, Path, description = "A file question of it"),
    ),
    request_body = UploadedFileAnswer,
    responses(
        (status = 200, description = "Saved", body = AnswerState),
        (status = 404, description = "Unknown research or question, unpublished or another station's", body = ErrorMessage),
        (status = 422, description = "A video question ('Tamanho ou formato inválido'); no such upload of the caller's ('Arquivo não encontrado. Envie o arquivo novamente.'); an upload another answer has ('Este arquivo já foi usado em outra resposta. Envie o arquivo novamente.'); the participation rules", body = Messages),
    )
)]
async fn save_uploaded_file_answer(
    State(state): State<AppState>,
    member: Member,
    Path((id, question_id)): Path<(i64, i64)>,
    Json(request): Json<UploadedFileAnswer>,
) -> ApiResult<Json<AnswerState>> {
    let answer = answers::save_uploaded_file(
        &state.db,
        &state.objects,
        answering(member, id, question_id),
        request.path.trim(),
        Utc::now(),
    )
    .await?;
    Ok(Json(answer.into()))
}

fn answering(member: Member, research_id: i64, question_id: i64) -> Answering {
    Answering {
        user_id: member.user(),
        station_id: member.station(),
        research_id,
        question_id,
    }
}

/// One answer of a submission, as the spec's payload has it.
#[derive(Debug, Deserialize, ToSchema)]
struct SubmittedAnswer {
    question: i64,
    #[serde(default)]
    options: Vec<i64>,
    /// A free text answer.
    answer: Option<String>,
    other: Option<String>,
}

/// A submission. The spec's other fields (`correct_answer_percentage`,
/// `answer_percentage`, `author`, `user`, `establishment`, `type_id`) are ignored: the
/// server scores the stored answers.
#[derive(Debug, Deserialize, ToSchema)]
struct ResearchSubmission {
    action_id: Option<i64>,
    /// The research.
    research: i64,
    /// The attempt being submitted; sent again, it answers the first result (200).
    attempt_id: Option<i64>,
    /// Answers to save before scoring.
    #[serde(default)]
    answers: Vec<SubmittedAnswer>,
}

async fn submit(
    state: &AppState,
    member: Member,
    form: Form,
    request: ResearchSubmission,
) -> ApiResult<(StatusCode, Json<ResearchResult>)> {
    let submission = Submission {
        research_id: request.research,
        action_id: request.action_id,
        attempt_id: request.attempt_id,
        answers: request
            .answers
            .into_iter()
            .map(|answer| {
                let given = Given {
                    options: answer.options,
                    text: answer.answer,
                    other: answer.other,
                };
                (answer.question, given)
            })
            .collect(),
    };
    let result = participation::submit_research(
        &state.db,
        &JobOutbox,
        member.user(),
        member.station(),
        form,
        &submission,
        Utc::now(),
    )
    .await?;
    if !result.recorded {
        return Ok((StatusCode::OK, Json(result.into())));
    }
    tracing::info!(
        user_id = member.user_id,
        research_id = result.research_id,
        participation_id = result.participation_id,
        won = result.won,
        "research submitted"
    );
    Ok((StatusCode::CREATED, Json(result.into())))
}

/// Submits the caller's quiz (type 6)
///
/// Every question needs an answer. Scored from the stored answers: the share right at the
/// first try; won at 0.5. A win is credited (`points.credit` keyed by the participation);
/// a loss is recorded and earns nothing.
#[utoipa::path(
    post,
    path = "/answer-quiz",
    tag = "activities",
    security(("member" = [])),
    request_body = ResearchSubmission,
    responses(
        (status = 201, description = "Submitted", body = ResearchResult),
        (status = 200, description = "The attempt was submitted before: its result", body = ResearchResult),
        (status = 404, description = "Unknown, unpublished, another station's or not a quiz", body = ErrorMessage),
        (status = 422, description = "A question unanswered; the participation rules", body = Messages),
    )
)]
async fn answer_quiz(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ResearchSubmission>,
) -> ApiResult<(StatusCode, Json<ResearchResult>)> {
    submit(&state, member, Form::Quiz, request).await
}

/// Submits the caller's survey (types 7 to 12)
///
/// The answers sent are saved first; every required question needs an answer. Credited
/// keyed by the participation.
#[utoipa::path(
    post,
    path = "/answer",
    tag = "activities",
    security(("member" = [])),
    request_body = ResearchSubmission,
    responses(
        (status = 201, description = "Submitted", body = ResearchResult),
        (status = 200, description = "The attempt was submitted before: its result", body = ResearchResult),
        (status = 404, description = "Unknown, unpublished, another station's or not a survey", body = ErrorMessage),
        (status = 422, description = "A required question unanswered, an answer that does not fit; the participation rules", body = Messages),
    )
)]
async fn answer_survey(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<ResearchSubmission>,
) -> ApiResult<(StatusCode, Json<ResearchResult>)> {
    submit(&state, member, Form::Survey, request).await
}

/// A poll's results (type 10)
///
/// How many submitted attempts chose each option; only once the caller has answered.
#[utoipa::path(
    get,
    path = "/research/{id}/results",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The research")),
    responses(
        (status = 200, description = "The results", body = PollResults),
        (status = 403, description = "The caller has not answered it", body = Messages),
        (status = 404, description = "Unknown, unpublished, another station's or not a poll with a chart", body = ErrorMessage),
    )
)]
async fn poll_results(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<PollResults>> {
    let mut conn = state.db.acquire().await?;
    let results = research::poll_results(&mut conn, member.user(), member.station(), id).await?;
    Ok(Json(results.into()))
}

/// The station's quizzes
///
/// The published quizzes (type 6) of the caller's station, by priority; `{id}` is the
/// station (the spec's establishment), another station's is refused.
#[utoipa::path(
    get,
    path = "/quizzes/establishment/{id}",
    tag = "activities",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's station")),
    responses(
        (status = 200, description = "The quizzes", body = [QuizCard]),
        (status = 403, description = "Another station", body = Messages),
    )
)]
async fn quizzes(
    State(state): State<AppState>,
    member: Member,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<QuizCard>>> {
    if id != member.station_id {
        return Err(ApiError::Forbidden(NOT_AUTHORIZED.into()));
    }
    let quizzes = research::quizzes(&state.db, member.station(), member.user()).await?;
    Ok(Json(quizzes.into_iter().map(QuizCard::from).collect()))
}
