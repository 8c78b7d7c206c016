use super::*;

fn option(id: i64, correct: bool) -> KeyedOption {
    KeyedOption {
        id,
        label: format!("Opção {id}"),
        color: None,
        text_color: None,
        image_key: None,
        correct,
        quiz_feedback_id: None,
    }
}

fn question(id: i64, type_id: i16, options: Vec<KeyedOption>) -> KeyedQuestion {
    KeyedQuestion {
        id,
        question: format!("Pergunta {id}"),
        type_id,
        color: None,
        text_color: None,
        image_key: None,
        message_for_correct: None,
        message_for_incorrect: Some("Quase!".into()),
        explanation: Some("Porque sim.".into()),
        options,
    }
}

fn chose(question_id: i64, options: &[i64]) -> Stored {
    Stored {
        question_id,
        option_ids: options.to_vec(),
        ..Stored::default()
    }
}

#[test]
fn a_single_choice_is_right_when_the_chosen_option_is_and_a_multiple_when_the_set_is() {
    let single = question(1, 1, vec![option(10, false), option(11, true)]);
    assert_eq!(single.judge(&[11]), Some(true));
    assert_eq!(single.judge(&[10]), Some(false));
    let multiple = question(
        2,
        2,
        vec![option(20, true), option(21, true), option(22, false)],
    );
    assert_eq!(multiple.judge(&[21, 20]), Some(true));
    assert_eq!(multiple.judge(&[20]), Some(false), "a subset is wrong");
    assert_eq!(
        multiple.judge(&[20, 21, 22]),
        Some(false),
        "a superset is wrong"
    );
    let poll = question(3, 1, vec![option(30, false)]);
    assert_eq!(poll.judge(&[30]), None);
}

#[test]
fn verdicts_say_the_question_messages_or_the_defaults_and_explain_only_when_right() {
    let q = question(1, 1, vec![option(10, true)]);
    assert_eq!(
        q.verdict(true),
        Verdict {
            correct: true,
            message: RIGHT_DEFAULT.into(),
            explanation: Some("Porque sim.".into())
        }
    );
    assert_eq!(q.verdict(false).message, "Quase!");
    assert_eq!(q.verdict(false).explanation, None);
}

#[test]
fn answers_are_checked_by_question_type() {
    let single = question(1, 1, vec![option(10, false), option(11, true)]);
    let given = |options: &[i64], text: Option<&str>, other: Option<&str>| Given {
        options: options.to_vec(),
        text: text.map(str::to_owned),
        other: other.map(str::to_owned),
    };
    assert_eq!(
        validate(&single, &given(&[10, 11], None, None)),
        Err(ONE_OPTION)
    );
    assert_eq!(
        validate(&single, &given(&[99], None, None)),
        Err(INVALID_OPTION)
    );
    assert!(validate(&single, &given(&[], None, None)).is_err());
    assert_eq!(
        validate(&single, &given(&[10, 10], None, None)).map(|g| g.options),
        Ok(vec![10])
    );
    let other = question(2, 4, vec![option(20, false)]);
    assert_eq!(
        validate(&other, &given(&[20], None, Some("Outro"))),
        Err(ONE_OPTION)
    );
    assert_eq!(
        validate(&other, &given(&[], None, Some(" Outra coisa "))).map(|g| g.other),
        Ok(Some("Outra coisa".into()))
    );
    let text = question(3, 3, vec![]);
    assert!(validate(&text, &given(&[], Some("   "), None)).is_err());
    let long = "a".repeat(MAX_TEXT + 1);
    assert_eq!(
        validate(&text, &given(&[], Some(&long), None)),
        Err(TEXT_TOO_LONG)
    );
    assert!(validate(&text, &given(&[], Some(&"é".repeat(MAX_TEXT)), None)).is_ok());
    let multiple = question(4, 2, vec![option(40, false)]);
    assert!(
        validate(&multiple, &given(&[], None, None)).is_ok(),
        "not required"
    );
    let file = question(5, 7, vec![]);
    assert_eq!(
        validate(&file, &given(&[], Some("x"), None)),
        Err(FILE_NEEDED)
    );
}

#[test]
fn a_quiz_scores_the_first_try_and_is_won_at_half() {
    let keyed = vec![
        question(1, 1, vec![option(10, true), option(11, false)]),
        question(2, 1, vec![option(20, true), option(21, false)]),
    ];
    let first_try = |question_id, right| Stored {
        first_try_correct: Some(right),
        correct: Some(true),
        ..chose(question_id, &[question_id * 10])
    };
    let half = score(
        ActivityType::Quiz,
        &keyed,
        &[first_try(1, true), first_try(2, false)],
    );
    assert_eq!(half.correct_count, 1);
    assert_eq!(half.correct_answer_percentage, Some(0.5));
    assert_eq!(half.won, Some(true), "0.5 wins");
    assert!(half.complete);
    let none = score(
        ActivityType::Quiz,
        &keyed,
        &[first_try(1, false), first_try(2, false)],
    );
    assert_eq!(none.won, Some(false));
    let missing = score(ActivityType::Quiz, &keyed, &[first_try(1, true)]);
    assert!(!missing.complete, "a quiz needs every question answered");
}

#[test]
fn a_survey_scores_answers_as_they_stand_and_needs_only_the_required_ones() {
    let keyed = vec![
        question(1, 1, vec![option(10, true), option(11, false)]),
        question(2, 2, vec![option(20, true), option(21, true)]),
        question(3, 2, vec![option(30, false)]),
    ];
    let result = score(
        ActivityType::ChecklistQuiz,
        &keyed,
        &[chose(1, &[10]), chose(2, &[20])],
    );
    assert!(result.complete, "multiple choice may be left empty");
    assert_eq!(result.correct_count, 1);
    assert_eq!(result.answered_count, 2);
    assert_eq!(
        result.questions,
        vec![
            QuestionResult {
                question_id: 1,
                correct: Some(true)
            },
            QuestionResult {
                question_id: 2,
                correct: Some(false)
            },
            QuestionResult {
                question_id: 3,
                correct: None
            },
        ]
    );
    assert!((result.correct_answer_percentage.expect("keyed") - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(result.won, None, "only quizzes are won");
    let unanswered = score(ActivityType::ChecklistQuiz, &keyed, &[chose(2, &[20])]);
    assert!(!unanswered.complete);
    let optional = vec![question(1, 2, vec![option(10, false)])];
    assert!(score(ActivityType::ChecklistPoll, &optional, &[]).complete);
    assert!(
        !score(ActivityType::PersonalityTest, &optional, &[]).complete,
        "a personality test needs every answer"
    );
    let poll = vec![question(1, 1, vec![option(10, false)])];
    assert_eq!(
        score(ActivityType::ChecklistPoll, &poll, &[chose(1, &[10])]).correct_answer_percentage,
        None
    );
}

#[test]
fn a_personality_test_shows_the_feedback_its_options_point_to_most() {
    let pointing = |id, feedback| KeyedOption {
        quiz_feedback_id: Some(feedback),
        ..option(id, false)
    };
    let keyed = vec![
        question(1, 1, vec![pointing(10, 100), pointing(11, 200)]),
        question(2, 1, vec![pointing(20, 100), pointing(21, 200)]),
        question(3, 1, vec![pointing(30, 100), pointing(31, 200)]),
    ];
    let answers = [chose(1, &[11]), chose(2, &[20]), chose(3, &[31])];
    let scored = score(ActivityType::PersonalityTest, &keyed, &answers);
    assert_eq!(
        feedback_of(ActivityType::PersonalityTest, &keyed, &scored, &[]),
        Some(200)
    );
    let ranges = [(1, 0, 49), (2, 50, 100)];
    let quiz = vec![
        question(1, 1, vec![option(10, true)]),
        question(2, 1, vec![option(20, true)]),
    ];
    let half = score(
        ActivityType::ChecklistQuiz,
        &quiz,
        &[chose(1, &[10]), chose(2, &[21])],
    );
    assert_eq!(
        feedback_of(ActivityType::ChecklistQuiz, &quiz, &half, &ranges),
        Some(2)
    );
}
