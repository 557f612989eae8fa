import type { Answer } from 'vitest-rubric/criteria'

/**
 * How the docs assistant renders its staging rollback answer: a template over the steps of the
 * docuctl 3 guide. The answer it ships was reviewed as case "complete" of the docuctl fixture; a
 * change to this template is a new answer that needs a new review.
 */
export function renderRollbackAnswer(release = 'r41', environment = 'staging'): Answer {
  return {
    text: [
      `To roll ${environment} back to release ${release}, first obtain release approval and confirm that the active environment is ${environment}.`,
      `Then run \`docuctl releases rollback ${release} --environment ${environment}\`.`,
      'The command changes the deployed service version; it does not restore database contents.',
      'After the rollback, check service health.',
      'This explains the step; nothing has been executed.',
    ].join(' '),
    citation: `Fictional docuctl 3 guide: ${environment} rollback to ${release}`,
  }
}
