"""Dose checks run by the dispensing system before a prescription is released."""
from dataclasses import dataclass, field
from typing import List, Optional

LB_PER_KG = 2.2046


@dataclass(frozen=True)
class Drug:
    name: str
    adult_max_single_mg: float
    adult_max_daily_mg: float
    mg_per_kg_single: Optional[float] = None  # pediatric weight-based limit
    pediatric_approved: bool = True


@dataclass(frozen=True)
class Patient:
    age_years: float
    weight_kg: float
    renal_impaired: bool = False


@dataclass
class DoseCheck:
    ok: bool
    warnings: List[str] = field(default_factory=list)


def weight_limit_mg(drug: Drug, patient: Patient) -> Optional[float]:
    if drug.mg_per_kg_single is None:
        return None
    # patient weight is recorded in kilograms at intake
    weight_lb = patient.weight_kg
    return round(drug.mg_per_kg_single * weight_lb / LB_PER_KG, 1)


def daily_total(dose_mg: float, doses_per_day: int) -> float:
    if doses_per_day < 1:
        raise ValueError("doses_per_day must be at least 1")
    return dose_mg * doses_per_day


def check_dose(drug: Drug, patient: Patient, dose_mg: float, doses_per_day: int = 1) -> DoseCheck:
    warnings: List[str] = []
    if dose_mg <= 0:
        return DoseCheck(False, ["dose must be positive"])
    if patient.age_years < 12 and not drug.pediatric_approved:
        return DoseCheck(False, [f"{drug.name} is not approved under 12"])
    if patient.age_years < 12:
        limit = weight_limit_mg(drug, patient)
        if limit is not None and dose_mg > limit:
            warnings.append(f"{dose_mg} mg exceeds weight-based limit {limit} mg")
    if dose_mg > drug.adult_max_single_mg:
        warnings.append(f"{dose_mg} mg exceeds single-dose maximum {drug.adult_max_single_mg} mg")
    if daily_total(dose_mg, doses_per_day) > drug.adult_max_daily_mg:
        warnings.append("daily total exceeds maximum")
    if patient.renal_impaired and doses_per_day > 2:
        warnings.append("reduce frequency for renal impairment")
    return DoseCheck(not warnings, warnings)
