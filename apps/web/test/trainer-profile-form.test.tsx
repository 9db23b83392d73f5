import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TRAINER_MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { FakeXhr, fakeXhrInEachTest } from './fake-xhr';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

fakeXhrInEachTest();

const profile = {
  first_name: 'Tara',
  last_name: 'Trainer',
  email: 'trainer@demo.test',
  mobile_no: '9876543210',
  ...Object.fromEntries(
    [
      'email2',
      'email3',
      'mobile_no2',
      'mobile_no3',
      'base_location',
      'address',
      'dob',
      'aadhar_no',
      'pan_no',
      'GSTIN_no',
      'state_code',
      'MSME_reg_no',
      'type_of_enterprise',
      'category_of_service',
      'services_rendered',
      'vat_no',
      'experience_over_all',
      'address_proof',
    ].map((k) => [k, null]),
  ),
  profile_pic: 'data:image/jpeg;base64,/9j/4AAQ',
};

describe('/trainer/update-profile', () => {
  it('offers the pictures as file pickers with the accepted types and the stored picture', async () => {
    signIn(['trainer']);
    stubFetch({ 'get-trainer-profile': () => ({ body: { success: profile } }) });
    renderApp('/trainer/update-profile');
    const pic = await screen.findByRole('button', { name: /Profile Picture/ });
    // a button that opens the chooser, with an upload icon and words saying so (not an empty text box)
    expect(pic).toHaveTextContent('Choose a picture…');
    expect(screen.getAllByText('A .png, .jpg or .jpeg picture, up to 5 MB.')).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'Current profile picture' })).toHaveAttribute('src', profile.profile_pic);
    expect(screen.getByText('No picture yet')).toBeInTheDocument();
    expect(document.querySelectorAll('input[type="file"][accept*=".png"]')).toHaveLength(2);
  });

  it('shows every field error of one submit at once: both pictures and the Aadhar', async () => {
    signIn(['trainer']);
    stubFetch({ 'get-trainer-profile': () => ({ body: { success: profile } }) });
    renderApp('/trainer/update-profile');
    const user = userEvent.setup({ applyAccept: false });
    await screen.findByRole('button', { name: /Profile Picture/ });
    const [picInput, proofInput] = document.querySelectorAll<HTMLInputElement>('input[type="file"]');
    await user.upload(picInput!, new File(['GIF89a'], 'me.gif', { type: 'image/gif' }));
    await user.upload(proofInput!, new File(['%PDF'], 'proof.pdf', { type: 'application/pdf' }));
    await user.type(screen.getByRole('textbox', { name: 'Aadhar No' }), '234567890123');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe('/api/update-trainer-profile');
    expect((xhr.sent?.get('profile_pic') as File).name).toBe('me.gif');
    xhr.answer(422, {
      profile_pic: [TRAINER_MSG.imageType],
      address_proof: [TRAINER_MSG.imageType],
      aadhar_no: ['The aadhar no is not a valid Aadhar number.'],
    });
    expect(await screen.findAllByText(TRAINER_MSG.imageType)).toHaveLength(2);
    expect(screen.getByText('The aadhar no is not a valid Aadhar number.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Aadhar No' })).toHaveAttribute('aria-invalid', 'true');
  });
});
