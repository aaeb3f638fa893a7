from pharmacy.dosing import Drug, Patient, check_dose

PARACETAMOL = Drug("paracetamol", adult_max_single_mg=1000, adult_max_daily_mg=4000, mg_per_kg_single=15)
CODEINE = Drug("codeine", adult_max_single_mg=60, adult_max_daily_mg=240, pediatric_approved=False)


def test_adult_standard_dose():
    assert check_dose(PARACETAMOL, Patient(40, 70), 1000, 4).ok


def test_child_dose_at_weight_limit_is_fine():
    result = check_dose(PARACETAMOL, Patient(6, 20), 300, 4)
    assert result.ok, result.warnings


def test_child_overdose_by_weight_is_flagged():
    result = check_dose(PARACETAMOL, Patient(6, 20), 500, 4)
    assert not result.ok


def test_codeine_blocked_for_children():
    assert check_dose(CODEINE, Patient(8, 25), 15).warnings == ["codeine is not approved under 12"]


def test_renal_frequency_warning():
    result = check_dose(PARACETAMOL, Patient(70, 80, renal_impaired=True), 500, 3)
    assert result.warnings == ["reduce frequency for renal impairment"]
